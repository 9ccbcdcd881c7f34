/**
 * `bproxy secret add NAME --origin ORIGIN` / `secret list` / `secret remove NAME`: the user's secrets
 * for `fill --secret NAME`. Adding and removing is a person's act, like `service start --allow-files`:
 * this command writes BPROXY_HOME/secrets.json itself; no daemon action, MCP tool or other door an
 * agent uses can add, list values or remove. The value is read from stdin — without echo at a
 * terminal — never from argv, and never printed: list shows names and origins only.
 */
import { Command } from 'commander';
import type * as Lifecycle from '@bproxy/client/lifecycle';
import { examples } from '../actions/grammar';
import { CliError, EXIT, usageError } from '../cli-error';
import { printJson } from '../output';
import { globalOptionsOf, type CommandContext, type CustomCommand } from './action-command';

/** All of stdin as text (a pipe or a file). */
async function readPiped(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** One line typed at the terminal, not echoed; Ctrl-C or Ctrl-D before Enter gives up. */
function readHidden(prompt: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(prompt);
  return new Promise((resolve, reject) => {
    let typed = '';
    const done = (error: Error | null) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (error === null) resolve(typed);
      else reject(error);
    };
    const onData = (chunk: Buffer) => {
      for (const ch of chunk.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return done(null);
        if (ch === '\u0003' || ch === '\u0004') return done(usageError('no value given: secret not added'));
        if (ch === '\u007f' || ch === '\b') typed = typed.slice(0, -1);
        else typed += ch;
      }
    };
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on('data', onData);
  });
}

/** The value: one line from stdin, its line ending dropped (spaces kept: they may be part of it). */
async function readValue(name: string): Promise<string> {
  const raw = process.stdin.isTTY
    ? await readHidden(`Value of secret ${name} (not shown): `)
    : await readPiped();
  const { SECRET_MAX_LENGTH, SECRET_MIN_LENGTH } = await import('@bproxy/protocol/plain');
  const value = raw.replace(/\r?\n$/, '');
  if (/[\r\n\0]/.test(value)) throw usageError('the value is one line (no line breaks, no NUL)');
  if (value.length < SECRET_MIN_LENGTH || value.length > SECRET_MAX_LENGTH)
    throw usageError(
      `the value must have ${SECRET_MIN_LENGTH} to ${SECRET_MAX_LENGTH} characters (a shorter one would be masked wherever it appears)`,
      'Pipe it in: bproxy secret add NAME --origin ORIGIN < file, or type it at the prompt',
    );
  return value;
}

/** Runs a store operation, its failures as catalogue codes (an unsafe file is UNSAFE_STATE_FILE). */
async function withStore<T>(run: (lifecycle: typeof Lifecycle) => T): Promise<T> {
  const lifecycle = await import('@bproxy/client/lifecycle');
  try {
    return run(lifecycle);
  } catch (error) {
    if (error instanceof lifecycle.SecretStoreError)
      throw new CliError(
        error.kind === 'unsafe' ? 'UNSAFE_STATE_FILE' : 'SECRET_STORE_UNREADABLE',
        error.message,
        EXIT.failure,
      );
    throw error;
  }
}

async function checkedName(name: string): Promise<string> {
  const { SecretNameSchema } = await import('@bproxy/protocol');
  if (!SecretNameSchema.safeParse(name).success)
    throw usageError(`"${name.slice(0, 80)}" is not a secret name: 1-64 of A-Z a-z 0-9 _ . - (not first)`);
  return name;
}

function addCommand(context: CommandContext): Command {
  return new Command('add')
    .description('add (or replace) a secret for one origin; the value is read from stdin, never argv')
    .argument('<name>', 'what agents say instead of the value: fill el3 --secret NAME')
    .requiredOption('--origin <origin>', 'the only origin it is filled on, e.g. https://bank.example')
    .addHelpText(
      'after',
      `${examples(
        'bproxy secret add bank --origin https://bank.example          # type it at the prompt (not shown)',
        'bproxy secret add bank --origin https://bank.example < pw.txt',
      )}
Output: {"added":NAME,"origin":ORIGIN,"key":"file"|"secret-tool"|"keychain"|"dpapi"} — where the store's key is.
`,
    )
    .action(async (rawName: string, opts: { origin: string }, cmd: Command) => {
      const name = await checkedName(rawName);
      const { secretOrigin } = await import('@bproxy/protocol');
      const origin = secretOrigin(opts.origin);
      if ('error' in origin) throw usageError(`--origin: ${origin.error}`);
      const value = await readValue(name);
      const pretty = globalOptionsOf(cmd, context.env).pretty;
      const added = await withStore((l) =>
        l.addSecret(l.resolveHome(context.env), name, origin.origin, value),
      );
      if (added.tried !== null)
        process.stderr.write(`bproxy: the key is in a 0600 file beside the store: ${added.tried}\n`);
      printJson({ added: name, origin: origin.origin, key: added.place }, pretty);
    });
}

function listCommand(context: CommandContext): Command {
  return new Command('list')
    .description('the secrets: names and origins, never values')
    .addHelpText(
      'after',
      `${examples('bproxy secret list')}\nOutput: {"secrets":[{"name","origin","added"}]}\n`,
    )
    .action(async (_opts: unknown, cmd: Command) => {
      const secrets = await withStore((l) => l.listSecrets(l.resolveHome(context.env)));
      printJson({ secrets }, globalOptionsOf(cmd, context.env).pretty);
    });
}

function removeCommand(context: CommandContext): Command {
  return new Command('remove')
    .description('remove a secret')
    .argument('<name>', 'the secret to remove')
    .addHelpText('after', `${examples('bproxy secret remove bank')}\nOutput: {"removed":NAME}\n`)
    .action(async (rawName: string, _opts: unknown, cmd: Command) => {
      const name = await checkedName(rawName);
      const removed = await withStore((l) => l.removeSecret(l.resolveHome(context.env), name));
      if (!removed) throw new CliError('SECRET_NOT_FOUND', `no secret named ${name}`, EXIT.failure);
      printJson({ removed: name }, globalOptionsOf(cmd, context.env).pretty);
    });
}

export const SECRET: CustomCommand = {
  build: (context) =>
    new Command('secret')
      .description("the user's secrets for fill --secret: agents fill them, never see them")
      .addHelpText(
        'after',
        `${examples(
          'bproxy secret add bank --origin https://bank.example < pw.txt',
          'bproxy -s ID fill el3 --secret bank       # the daemon fills it; answers never show it',
        )}
Stored encrypted (AES-256-GCM) in BPROXY_HOME/secrets.json; the key in the OS keychain where one
answers, else in BPROXY_HOME/secrets.key (0600). Only a field of the secret's origin is filled.
`,
      )
      .addCommand(addCommand(context))
      .addCommand(listCommand(context))
      .addCommand(removeCommand(context)),
  reference: [
    {
      usage: '`bproxy secret add NAME --origin ORIGIN` / `list` / `remove NAME`',
      does: "the user's secrets for `fill --secret`: value from stdin (not echoed), never argv; list shows names and origins only",
    },
  ],
};
