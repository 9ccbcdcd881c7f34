/**
 * How a detached daemon tells the `service start` that spawned it whether it came up: one JSON line
 * on an inherited pipe (fd given by `--status-fd`), then the pipe is closed. Failures before
 * readiness ("port 9615 is in use") thus reach the user as a sentence, not as a timeout. The daemon
 * writes at most one report; a parent that is gone (EPIPE) is not an error.
 */
import { closeSync, writeSync } from 'node:fs';
import type { LifecycleErrorKind } from './errors';

export type StartReport =
  | { readonly ok: true; readonly pid: number; readonly port: number }
  | { readonly ok: false; readonly kind: LifecycleErrorKind; readonly message: string };

export interface StartReporter {
  report(report: StartReport): void;
}

export function openStartReporter(fd: number | null): StartReporter {
  let done = fd === null;
  return {
    report(report) {
      if (done || fd === null) return;
      done = true;
      try {
        writeSync(fd, `${JSON.stringify(report)}\n`);
      } catch {
        // the parent gave up waiting; the outcome is in the log
      }
      try {
        closeSync(fd);
      } catch {
        // already closed
      }
    },
  };
}

const KINDS: readonly LifecycleErrorKind[] = ['config', 'unsafe-state', 'already-running', 'port', 'failed'];

/** Parses the daemon's line; null when it is not a report (the caller then says the daemon died). */
export function parseStartReport(line: string): StartReport | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const r = value as Record<string, unknown>;
  if (r.ok === true && Number.isSafeInteger(r.pid) && Number.isSafeInteger(r.port)) {
    return { ok: true, pid: r.pid as number, port: r.port as number };
  }
  const kind = KINDS.find((k) => k === r.kind);
  if (r.ok === false && kind !== undefined && typeof r.message === 'string')
    return { ok: false, kind, message: r.message };
  return null;
}
