/**
 * The real daemon and the real CLI for end-to-end tests. Kept under this name for the files that
 * import it; the one implementation is suite-cli.ts.
 */
export { Cli, type CliError, type CliResult, type StartOutput } from './suite-cli';
