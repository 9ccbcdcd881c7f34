/**
 * The one place that writes results and failures. Success: the answer's `data` on stdout (compact
 * JSON by default, indented with --pretty). Failure: on stderr — a JSON error object by default,
 * `CODE: message` plus the hint with --pretty — and the exit code that goes with it.
 */
import type { ErrorCode } from '@bproxy/protocol/plain';
import type { Answer } from '@bproxy/client';
import { CliError, EXIT, ServiceError, type ExitCode } from './cli-error';

/** A daemon answer with ok:false, kept whole so that --json callers see the catalogue fields. */
export type ErrorEnvelope = Extract<Answer, { ok: false }>;

export class ProtocolFailure extends Error {
  override readonly name = 'ProtocolFailure';
  constructor(readonly envelope: ErrorEnvelope) {
    super(envelope.error.message);
  }
}

// Lines go out through console, not process.stdout/stderr: the compiled (Bun) binary builds those
// Node streams lazily, which costs it ~10 ms per run, while console writes the same bytes at once.
// '%s' keeps the text from being read as a format string.

/** Writes `line` and a newline on stdout. */
export function writeLine(line: string): void {
  console.log('%s', line);
}

const chomp = (text: string): string => (text.endsWith('\n') ? text.slice(0, -1) : text);

/** Writes `text` (newline-terminated lines, like commander's help) on stdout. */
export function writeText(text: string): void {
  console.log('%s', chomp(text));
}

/** Writes `text` (newline-terminated lines) on stderr. */
export function writeErrorText(text: string): void {
  console.error('%s', chomp(text));
}

export function printJson(value: unknown, pretty: boolean): void {
  writeLine(JSON.stringify(value, null, pretty ? 2 : undefined));
}

function printError(
  code: ErrorCode,
  message: string,
  hint: string | undefined,
  pretty: boolean,
  json: unknown,
): void {
  if (pretty) {
    writeErrorText(`${code}: ${message}\n${hint ? `hint: ${hint}\n` : ''}`);
  } else {
    writeErrorText(`${JSON.stringify(json)}\n`);
  }
}

/** Commander's own usage errors ("unknown option '--x'"), printed in the same two styles. */
export function writeUsageError(text: string, pretty: boolean): void {
  const message = text.trim().replace(/^error: /, '');
  const hint = 'Run the command with --help for its usage';
  printError('USAGE', message, hint, pretty, { ok: false, error: { code: 'USAGE', message, hint } });
}

/** Prints `error` and returns the exit code for it (commander's own errors: see program.ts). */
export function reportFailure(error: unknown, pretty: boolean): ExitCode {
  if (error instanceof ServiceError) {
    writeErrorText(`bproxy: ${error.message}\n`);
    return EXIT.failure;
  }
  if (error instanceof ProtocolFailure) {
    const { code, message, hint, reason } = error.envelope.error;
    printError(code, reason ? `${message} (${reason})` : message, hint, pretty, error.envelope);
    return EXIT.failure;
  }
  if (error instanceof CliError) {
    const json = {
      ok: false,
      error:
        error.hint === undefined
          ? { code: error.code, message: error.message }
          : { code: error.code, message: error.message, hint: error.hint },
    };
    printError(error.code, error.message, error.hint, pretty, json);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  printError('LOCAL_ERROR', message, undefined, pretty, {
    ok: false,
    error: { code: 'LOCAL_ERROR', message },
  });
  return EXIT.failure;
}
