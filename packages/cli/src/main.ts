/**
 * The `bproxy` binary: parse argv, run one command, exit with 0 / 1 (failed) / 2 (usage) / 3 (no
 * daemon). Kept free of heavy imports; see invoke.ts for what loads lazily.
 */
import { prettyFromArgv } from './global-options';
import { reportFailure } from './output';
import { buildProgram } from './program';

const pretty = prettyFromArgv(process.argv.slice(2));
try {
  await buildProgram(pretty, process.argv.slice(2)).parseAsync(process.argv);
} catch (error) {
  process.exitCode = reportFailure(error, pretty);
}
