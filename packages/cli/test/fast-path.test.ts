/**
 * The fast path (src/fast-path.ts) against the full commander program it stands in for. The lines it
 * takes, it reads into exactly the call and global options commander reads (the lines agents write,
 * and generated ones); the lines it leaves go to commander; and run against a daemon, both paths print
 * the same output and error envelopes with the same exit codes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_COMMANDS } from '../src/actions';
import { optionNames, type ActionCommand, type OptionSpec } from '../src/actions/grammar';
import { runCommandLine } from '../src/command-line';
import { readFastLine } from '../src/fast-path';
import { GLOBAL_OPTIONS, type GlobalOptions } from '../src/global-options';
import { buildProgram, runProgram } from '../src/program';
import type { ActionCall } from '../src/actions/grammar';
import { FAST_LINES, FULL_LINES, OTHER_COMMAND_LINES } from './helpers/action-lines';
import { capture, comparable } from './helpers/capture';
import { startFakeDaemon, type FakeDaemon } from './helpers/fake-daemon-process';

const ENV = { BPROXY_SESSION: 'envs01' };

/** What commander makes of `args`: the global options and the call its action command runs. */
async function viaCommander(
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ kind: 'action'; globals: GlobalOptions; call: ActionCall }> {
  let seen: { globals: GlobalOptions; call: ActionCall } | undefined;
  const run = (globals: GlobalOptions, call: ActionCall) => {
    seen = { globals, call };
    return Promise.resolve();
  };
  await buildProgram(false, args, { env, run }).parseAsync(args, { from: 'user' });
  if (seen === undefined) throw new Error(`commander ran no action for ${JSON.stringify(args)}`);
  return { kind: 'action', ...seen };
}

const titled = (lines: readonly (readonly string[])[]) =>
  lines.map((line) => [JSON.stringify(line), line] as const);

describe('the fast path', () => {
  it.each(titled(FAST_LINES))('reads %s as commander does', async (_title, line) => {
    const fast = readFastLine(line, ENV);
    expect(fast).toBeDefined();
    expect(fast).toEqual(await viaCommander(line, ENV));
  });

  it.each(titled(FULL_LINES))('leaves %s to commander', (_title, line) => {
    expect(readFastLine(line, ENV)).toBeUndefined();
  });

  it.each(titled(OTHER_COMMAND_LINES))('leaves %s, a command that is no action, to commander', (_t, line) => {
    expect(readFastLine(line, ENV)).toBeUndefined();
  });

  it('answers the version itself, as `--version` or `-V` alone', () => {
    expect(readFastLine(['--version'], {})).toEqual({ kind: 'version' });
    expect(readFastLine(['-V'], {})).toEqual({ kind: 'version' });
  });

  it('has no option of an action command that shadows a global one', () => {
    const globals = Object.values(GLOBAL_OPTIONS).flatMap((o) => Object.values(optionNames(o)));
    for (const command of ACTION_COMMANDS)
      for (const option of Object.values(command.options))
        expect(globals, command.path.join(' ')).not.toContain(optionNames(option).long);
  });

  it('reads generated lines as commander does, whenever it takes them', async () => {
    // Mostly well-formed pieces (an option and a value it takes, a global option, a positional word),
    // with noise mixed in: commander's corners are in how the pieces combine.
    const globalPieces = [
      ['-s', 'm4q7z2'],
      ['-sm4q7z2'],
      ['--session=m4q7z2'],
      ['--timeout', '900'],
      ['--pretty'],
      ['--json'],
    ];
    const noise = ['', '0', '2.5', '12px', '-1', '-x', '--', '-', '--help', '-h', 'help', '--bogus', '-s'];
    const positional = [
      'el3',
      'ln2',
      't2',
      '#q',
      'a b',
      'up',
      'down',
      'accept',
      'dismiss',
      'https://e.example',
    ];
    const valueOf = (option: OptionSpec): fc.Arbitrary<string[]> => {
      const { value } = option;
      switch (value.kind) {
        case 'flag':
          return fc.constant([]);
        case 'int':
          return fc
            .integer({ min: value.min - 1, max: Math.min(value.max + 1, value.min + 20) })
            .map((n) => [`${n}`]);
        case 'choice':
          return fc.constantFrom(...value.choices, 'nope').map((v) => [v]);
        case 'text':
          return fc.constantFrom('el3', '#a', 'x y', '').map((v) => [v]);
      }
    };
    const pieceOf = (command: ActionCommand): fc.Arbitrary<readonly string[]> => {
      const options = Object.values(command.options);
      const optionPieces = options.map((option) => {
        const { long } = optionNames(option);
        return valueOf(option).chain((value) =>
          fc.constantFrom<readonly string[]>(
            [long, ...value],
            value.length === 1 ? [`${long}=${value[0]}`] : [long],
          ),
        );
      });
      return fc.oneof(
        ...optionPieces,
        fc.constantFrom(...globalPieces),
        fc.constantFrom(...positional).map((w) => [w]),
        fc.constantFrom(...noise).map((w) => [w]),
      );
    };
    const lines = fc
      .constantFrom(...ACTION_COMMANDS)
      .chain((command) =>
        fc.tuple(
          fc.array(fc.constantFrom(...globalPieces), { maxLength: 2 }),
          fc.constant(command.path),
          fc.array(pieceOf(command), { maxLength: 4 }),
        ),
      )
      .map(([before, path, after]) => [...before.flat(), ...path, ...after.flat()]);
    let taken = 0;
    let tried = 0;
    await fc.assert(
      fc.asyncProperty(lines, async (line) => {
        tried++;
        const fast = readFastLine(line, ENV);
        if (fast === undefined) return;
        taken++;
        expect(fast).toEqual(await viaCommander(line, ENV));
      }),
      { numRuns: 1000 },
    );
    // Not vacuous: a fair share of the generated lines took the fast path.
    expect(taken / tried).toBeGreaterThan(0.15);
  });
});

describe('run against a daemon, the fast path and the full program', () => {
  let home: string;
  let fake: FakeDaemon;
  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'bproxy-fast-home-'));
    fake = await startFakeDaemon(home);
  }, 60_000);
  afterAll(async () => {
    await fake.stop();
    rmSync(home, { recursive: true, force: true });
  });

  const both = async (line: readonly string[], env: Record<string, string>) => ({
    fast: comparable(await capture(() => runCommandLine(line, env))),
    full: comparable(await capture(() => runProgram(line, env))),
  });

  it.each(titled(FAST_LINES))(
    'print the same and exit alike for %s (error envelopes)',
    async (_title, line) => {
      const { fast, full } = await both(line, { ...ENV, BPROXY_HOME: home });
      expect(fast).toEqual(full);
      // The stand-in refuses everything: exit 1 with its envelope, or 2 where the schema refuses the call.
      expect([1, 2]).toContain(fast.code);
      expect(fast.stderr).toMatch(/^{"ok":false|^[A-Z_]+: /);
    },
  );

  it('print the same answer and write the same file for a successful screenshot', async () => {
    const out = join(fake.dir, 'shot.png');
    const { fast, full } = await both(['screenshot', '--format', 'png', '--out', out], { BPROXY_HOME: home });
    expect(fast).toEqual(full);
    expect(fast).toEqual({
      code: 0,
      stdout: `${JSON.stringify({ path: out, mimeType: 'image/png', width: 3, height: 2 })}\n`,
      stderr: '',
    });
  });

  it('exit 3 with the same NO_DAEMON envelope when no daemon runs', async () => {
    const { fast, full } = await both(['--pretty', 'click', 'el3'], {
      BPROXY_HOME: join(fake.dir, 'no-home'),
    });
    expect(fast).toEqual(full);
    expect(fast.code).toBe(3);
    expect(fast.stderr).toMatch(/^NO_DAEMON: no bproxy daemon is running/);
  });
});
