/**
 * The "download" approval class, decided when a session's tab starts a download (files/downloads.ts
 * asks as the driver reports it): the class decision (decide.ts) for the page's origin and where the
 * browser is allows it, denies it (POLICY_DENIED), or asks (APPROVAL_REQUIRED, recorded in the book
 * for a person to decide in the side panel). A download that is not allowed is not kept: the daemon
 * removes its bytes when it ends, lists it as refused with the code, and `wait --download` answers that
 * code. The agent's retry (the same tab starting the same URL again) consumes a person's "Allow once".
 * Where no person can answer (no extension connected), "ask" is denied with how to allow it.
 */
import type { ClientRecord } from '../browsers/clients';
import type { CommandRouteDeps } from '../actions/types';
import type { SessionRecord, TabRecord } from '../sessions/sessions';
import { CLASS_WORDS, browserKind, classDecision, originOf } from './decide';

export interface DownloadRefusal {
  readonly code: 'APPROVAL_REQUIRED' | 'POLICY_DENIED';
  readonly message: string;
  readonly details: Record<string, unknown>;
}

export type DownloadGate = (
  session: SessionRecord,
  tab: TabRecord,
  client: ClientRecord,
  url: string,
) => DownloadRefusal | null;

export function downloadGate(
  deps: Pick<CommandRouteDeps, 'policy' | 'approvals' | 'clients' | 'clock' | 'logger' | 'launchers'>,
): DownloadGate {
  return (session, tab, client, url) => {
    const policy = deps.policy.inForce();
    const origin = originOf(tab.url);
    // Built-in default: asked in the user's Chrome (and attached, remote, farm), allowed in a launched one.
    const decision = classDecision(policy, origin, 'download', browserKind(deps.launchers, client));
    if (decision === 'allow') return null;
    const at = origin ?? 'this page';
    const what = `the download of ${url.slice(0, 200)} (${CLASS_WORDS.download}) at ${at}`;
    const fix = `a person can allow it in policy.json ("classes": {"download": "allow"}, for all or for this origin)`;
    const rule = { origin: at, rule: `class download: ${decision}` };
    if (decision === 'deny')
      return {
        code: 'POLICY_DENIED',
        message: `${what} is denied by the site policy; ${fix}`,
        details: rule,
      };
    if (!deps.clients.connected().some((c) => c.kind === 'extension'))
      return {
        code: 'POLICY_DENIED',
        message: `${what} needs a person's approval and none can answer here (no extension connected), so it was not kept; ${fix}`,
        details: rule,
      };
    const attempt = deps.approvals.attempt({
      key: JSON.stringify([session.id, tab.handle, 'download', url]),
      session: session.id,
      tab: tab.handle,
      action: 'download',
      class: 'download',
      origin: at,
      name: url.slice(0, 200),
      fields: [],
      at: deps.clock.now(),
    });
    if (attempt.state === 'allowed') {
      deps.logger.info({ event: 'approval_used', session: session.id, class: 'download', origin: at });
      return null;
    }
    const details = { approval: attempt.approval.id, class: 'download', origin: at, name: url.slice(0, 200) };
    if (attempt.state === 'denied')
      return {
        code: 'APPROVAL_REQUIRED',
        message: `a person denied ${what}; it was not kept (starting it again asks again)`,
        details,
      };
    deps.logger.info({ event: 'approval_asked', session: session.id, class: 'download', origin: at });
    return {
      code: 'APPROVAL_REQUIRED',
      message: `${what} waits for a person's decision in the side panel; it was not kept. Start it again after they allow it`,
      details,
    };
  };
}
