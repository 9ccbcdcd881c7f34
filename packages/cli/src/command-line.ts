/**
 * One run of `bproxy`: a command line in, an exit code out — 0 ok, 1 the action failed, 2 usage error,
 * 3 no daemon. An ordinary action line takes the fast path (fast-path.ts: no commander, no zod, help
 * texts never built); everything else loads the full program (program.ts), lazily.
 */
import { BPROXY_VERSION } from '@bproxy/protocol/plain';
import type { Env } from '@bproxy/client';
import { EXIT, type ExitCode } from './cli-error';
import { readFastLine } from './fast-path';
import { reportFailure, writeLine } from './output';
import { runAction } from './run-action';

/** Runs `args` (argv without the runtime and the script) in the environment `env`; the exit code. */
export async function runCommandLine(args: readonly string[], env: Env): Promise<ExitCode> {
  const line = readFastLine(args, env);
  if (line === undefined) return (await import('./program')).runProgram(args, env);
  if (line.kind === 'version') {
    writeLine(BPROXY_VERSION);
    return EXIT.ok;
  }
  try {
    await runAction(line.globals, line.call, env);
    return EXIT.ok;
  } catch (error) {
    return reportFailure(error, line.globals.pretty);
  }
}
