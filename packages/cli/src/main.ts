/** The `bproxy` binary (the entry of dist/bproxy.mjs and of the compiled executable). */
import { runCommandLine } from './command-line';

process.exitCode = await runCommandLine(process.argv.slice(2), process.env);
