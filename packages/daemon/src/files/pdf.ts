/**
 * pdf on the daemon's side: where the file goes is checked before the request is forwarded (the
 * session's folder by default, or `out` inside an allowed folder), and the bytes the driver answered
 * are written there by the daemon — 0600, never through a link — and named in the answer.
 */
import { join } from 'node:path';
import type { DriverOutcome } from '../browsers/forwarded-requests';
import { failed } from '../actions/outcome';
import type { CommandRouteDeps } from '../actions/types';
import type { SessionRecord } from '../sessions/sessions';
import { checkOutFile, sessionRules, writePrivateFile } from './allowed-folders';

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
  const checked = checkOutFile(
    typeof out === 'string' ? out : defaultName(session),
    sessionRules(session, deps.files),
  );
  if (!checked.ok) return failed(checked.code, checked.message);
  return {
    params: layout,
    answer(outcome) {
      if (!outcome.ok) return outcome;
      const data = (outcome.data as { data?: unknown }).data;
      if (typeof data !== 'string') return failed('DRIVER_ERROR', 'pdf: the driver answered no PDF');
      const bytes = Buffer.from(data, 'base64');
      try {
        writePrivateFile(checked.path, bytes);
      } catch (error) {
        return failed(
          'PATH_NOT_ALLOWED',
          `${checked.path} could not be written: ${(error as Error).message}`,
        );
      }
      return { ok: true, data: { file: checked.path, bytes: bytes.length } };
    },
  };
}
