/**
 * pdf on the daemon's side: where the file goes is checked before the request is forwarded (the
 * session's folder by default, or `out` inside an allowed folder), and the bytes the driver answered
 * are written there by the daemon — 0600, never through a link — and named in the answer.
 */
import { closeSync, constants, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { DriverOutcome } from '../browsers/forwarded-requests';
import { failed } from '../actions/outcome';
import type { CommandRouteDeps } from '../actions/types';
import type { SessionRecord } from '../sessions/sessions';
import { checkOutFile } from './allowed-folders';

export interface CheckedPdf {
  readonly params: Record<string, unknown>;
  answer(outcome: DriverOutcome): DriverOutcome;
}

/** A name in the session's folder that no earlier pdf of this daemon used. */
function defaultName(session: SessionRecord): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return join(session.tmpDir, `page-${stamp}.pdf`);
}

export function checkPdf(
  deps: CommandRouteDeps,
  session: SessionRecord,
  params: Record<string, unknown>,
): CheckedPdf | DriverOutcome {
  const { out, ...layout } = params;
  const checked = checkOutFile(typeof out === 'string' ? out : defaultName(session), {
    sessionFolder: session.tmpDir,
    folders: [session.tmpDir, ...deps.files.allowed],
    maxBytes: 0,
  });
  if (!checked.ok) return failed(checked.code, checked.message);
  return {
    params: layout,
    answer(outcome) {
      if (!outcome.ok) return outcome;
      const data = (outcome.data as { data?: unknown }).data;
      if (typeof data !== 'string') return failed('DRIVER_ERROR', 'pdf: the driver answered no PDF');
      const bytes = Buffer.from(data, 'base64');
      const fd = openSync(
        checked.path,
        constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0),
        0o600,
      );
      try {
        writeSync(fd, bytes);
      } finally {
        closeSync(fd);
      }
      return { ok: true, data: { file: checked.path, bytes: bytes.length } };
    },
  };
}
