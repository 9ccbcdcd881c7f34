/**
 * `bproxy mcp config CLIENT [--write] [--no-skill] [--file PATH]`: the MCP entry for one client with
 * this installation's absolute paths, printed, or merged into the client's file (../mcp/client-config.ts
 * says where each client keeps it and how the file is changed).
 */
import { existsSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, resolve } from 'node:path';
import { Command } from 'commander';
import { CliError, EXIT, usageError } from '../cli-error';
import { examples } from '../actions/grammar';
import {
  ConfigRefused,
  MCP_CLIENTS,
  SKILL_CLIENTS,
  configFile,
  isMcpClient,
  mergeConfig,
  skillFile,
  snippet,
  writeMerged,
  writeSkill,
  type Launch,
  type McpClient,
  type Place,
} from '../mcp/client-config';
import { printJson } from '../output';
import { IS_BUN, besideCli } from '../runtime';
import { globalOptionsOf, type CommandContext } from './action-command';
import { skillText } from './agents-guide';

/**
 * How a client starts this installation's MCP server: this Node and the package's bin/bproxy.mjs
 * (the bundle itself when there is no bin beside it), or the compiled binary alone.
 */
export function installedLaunch(): Launch {
  if (IS_BUN) return { command: realpathSync(process.execPath), args: ['mcp'] };
  const bundle = besideCli('bproxy.mjs');
  const bin = resolve(dirname(bundle), '..', 'bin', 'bproxy.mjs');
  const entry = existsSync(bin) ? realpathSync(bin) : bundle;
  return { command: process.execPath, args: [entry, 'mcp'] };
}

const clientList = MCP_CLIENTS.join(', ');

interface ConfigFlags {
  readonly write?: boolean;
  readonly skill: boolean;
  readonly file?: string;
}

function placeOf(env: NodeJS.ProcessEnv): Place {
  const home = env.HOME !== undefined && env.HOME !== '' ? env.HOME : homedir();
  return { platform: process.platform, env, home };
}

function refused(file: string, error: unknown): never {
  if (error instanceof ConfigRefused)
    throw new CliError(
      'LOCAL_ERROR',
      `${file} was left unchanged: ${error.message}`,
      EXIT.failure,
      'Fix the file (or move it aside), then run this command again; or paste the entry that `bproxy mcp config CLIENT` prints',
    );
  throw error;
}

export function mcpConfigCommand(context: CommandContext): Command {
  return new Command('config')
    .description(`print (or --write) the MCP entry for a client: ${clientList}`)
    .argument('<client>', clientList)
    .option('--write', "add the entry to the client's configuration file (a backup is made first)")
    .option(
      '--file <path>',
      "with --write: this file instead of the client's usual one (e.g. a project's .vscode/mcp.json)",
    )
    .option(
      '--no-skill',
      `with --write: do not install the agents' guide as a skill (${SKILL_CLIENTS.join(', ')})`,
    )
    .addHelpText(
      'after',
      `${examples(
        'bproxy mcp config cursor                        # print the entry for ~/.cursor/mcp.json',
        'bproxy mcp config claude-code --write           # add it to ~/.claude.json, and the skill',
        'bproxy mcp config codex --write --no-skill      # add it to ~/.codex/config.toml only',
      )}
The entry runs this Node (${'`'}node${'`'} as an absolute path) with this installation's bproxy, so it works
from any folder and never fetches a package; run the command again after moving Node or bproxy.
Files --write changes: claude-code ~/.claude.json (mcpServers; $CLAUDE_CONFIG_DIR/.claude.json when set); claude-desktop
claude_desktop_config.json (macOS ~/Library/Application Support/Claude, Windows %APPDATA%\\Claude,
Linux ~/.config/Claude); cursor ~/.cursor/mcp.json; vscode the user mcp.json (macOS
~/Library/Application Support/Code/User, Windows %APPDATA%\\Code\\User, Linux ~/.config/Code/User);
codex $CODEX_HOME/config.toml (~/.codex). The file is copied to FILE.bproxy-backup-STAMP (0600)
before it changes; a file that does not parse is refused and left as it was; a second run changes
nothing. The skill (the guide of \`bproxy help agents\`) goes to ~/.claude/skills/bproxy/SKILL.md for
claude-code and ~/.agents/skills/bproxy/SKILL.md for codex, unless --no-skill.
Output with --write: {"client","file","changed","backup"?,"skill":{"file","changed","backup"?}|null}
`,
    )
    .action((client: string, opts: ConfigFlags, cmd: Command) => {
      if (!isMcpClient(client))
        throw usageError(`unknown MCP client "${client}"`, `Choose one of: ${clientList}`);
      const place = placeOf(process.env);
      const launch = installedLaunch();
      if (opts.write !== true) {
        if (opts.file !== undefined) throw usageError('--file goes with --write');
        return void process.stdout.write(snippet(client, launch, place.platform));
      }
      const file = opts.file === undefined ? configFile(client, place) : resolve(opts.file);
      if (!isAbsolute(file)) throw usageError(`--file must name a file, got "${opts.file ?? ''}"`);
      const written = (() => {
        try {
          return writeMerged(file, (text) => mergeConfig(client as McpClient, text, launch));
        } catch (error) {
          return refused(file, error);
        }
      })();
      const skillPath = opts.skill ? skillFile(client, place) : undefined;
      const skill = (() => {
        if (skillPath === undefined) return null;
        try {
          return writeSkill(skillPath, skillText());
        } catch (error) {
          return refused(skillPath, error);
        }
      })();
      printJson({ client, ...written, skill }, globalOptionsOf(cmd, context.env).pretty);
    });
}
