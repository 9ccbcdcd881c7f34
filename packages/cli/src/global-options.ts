/**
 * Options every command accepts, wherever they appear on the line: the session, the deadline and
 * the output mode. `--json` (the default) is for programs, `--pretty` for people. Defined once as
 * grammar, for commander (commands/action-command.ts adds their help) and for the fast path.
 */
import { DEFAULT_TIMEOUT_MS, MAX_DEADLINE_MS } from '@bproxy/protocol/plain';
import { currentTerminalSession, resolveHome, type Env } from '@bproxy/client';
import { flag, int, text, type OptionValues } from './actions/grammar';

export const GLOBAL_OPTIONS = {
  session: text('-s, --session <id>'),
  timeout: int('--timeout <ms>', 1, MAX_DEADLINE_MS),
  pretty: flag('--pretty'),
  json: flag('--json'),
} as const;

export type GlobalValues = OptionValues<typeof GLOBAL_OPTIONS>;

export interface GlobalOptions {
  readonly session: string | undefined;
  readonly timeoutMs: number;
  readonly pretty: boolean;
}

/** What the parsed global options mean: the session falls back to $BPROXY_SESSION (when not empty). */
export function resolveGlobals(values: GlobalValues, env: Env): GlobalOptions {
  const fromEnv = env.BPROXY_SESSION;
  return {
    session: values.session ?? (fromEnv !== undefined && fromEnv !== '' ? fromEnv : undefined),
    timeoutMs: values.timeout ?? DEFAULT_TIMEOUT_MS,
    pretty: values.pretty === true && values.json !== true,
  };
}

/** Before commander has parsed anything (its own usage errors), the mode comes from a plain scan. */
export function prettyFromArgv(argv: readonly string[]): boolean {
  const args = argv.slice(0, argv.includes('--') ? argv.indexOf('--') : argv.length);
  return args.includes('--pretty') && !args.includes('--json');
}

/**
 * The session an action goes to. In a side panel's terminal (BPROXY_TERMINAL), $BPROXY_SESSION names
 * the session the terminal's tab had when its program started: that session, named by the variable or
 * by `-s "$BPROXY_SESSION"`, means the tab's session now, which the native host keeps in the
 * terminal's file (a daemon restart or a new Share gives the tab a new one). Any other `-s` is taken
 * as written. Throws LifecycleError when that file is unsafe.
 */
export function sessionNow(session: string | undefined, env: Env): string | undefined {
  if (session !== undefined && session !== env.BPROXY_SESSION) return session;
  const current = currentTerminalSession(env, resolveHome(env));
  return current === undefined || current === '' ? session : current;
}
