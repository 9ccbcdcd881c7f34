/** What every command handler gets: the object graph built once by buildServer. */
import type { BproxyRequest, BproxyResponse, PairingCodeKind } from '@bproxy/protocol';
import type { ActivityLog } from '../logs/activity';
import type { BrowserState } from '../browsers/browser-state';
import type { ClientRegistry } from '../browsers/clients';
import type { Clock } from '../clock';
import type { DriverConnections } from '../browsers/drivers';
import type { ElementHandles } from '../sessions/element-handles';
import type { IdleExit } from '../idle-exit';
import type { Launchers } from '../browsers/launchers';
import type { Logger } from '../logs/logger';
import type { NetworkSettings } from '../observe/network-settings';
import type { ForwardedRequests } from '../browsers/forwarded-requests';
import type { SessionRegistry, TabRecord } from '../sessions/sessions';
import type { TabQueues } from '../sessions/tab-queues';
import type { TraceRing } from '../logs/traces';
import type { Downloads } from '../files/downloads';
import type { SitePolicyGate } from '../policy/site-policy';
import type { ApprovalBook } from '../approvals/book';
import type { DaemonSecrets } from './secret-fill';

export interface CommandRouteDeps {
  sessions: SessionRegistry;
  clients: ClientRegistry;
  drivers: DriverConnections;
  pending: ForwardedRequests;
  queues: TabQueues;
  handles: ElementHandles;
  launchers: Launchers;
  /** Present when the daemon was started implicitly: it stops once no agent has used it for a while. */
  idleExit: IdleExit | null;
  traces: TraceRing;
  logger: Logger;
  clock: Clock;
  random: () => number;
  graceMs: number;
  tmpRoot: string;
  /** The folders an agent's files may be in besides each session's own (files.json, --allow-files), and the upload cap. */
  files: { readonly allowed: readonly string[]; readonly uploadMaxBytes: number };
  /** The downloads of sessions' tabs (files/downloads.ts). */
  downloads: Downloads;
  /** The user's settings for the network read: whether secrets show. */
  networkSettings: NetworkSettings;
  startedMono: number;
  port(): number;
  paired(): boolean;
  /** A fresh one-time pairing code (the previous one is retired). */
  issuePairingCode(kind?: PairingCodeKind): { code: string; issuedAt: number; expiresAt: number };
  /** What browsers are shown of agents' work (the side panel's feed). */
  activity: ActivityLog;
  /** Pushes each extension the sessions holding its tabs when they change. */
  browserState: BrowserState;
  /** The site policy every navigation is judged by (policy/enforce.ts). */
  policy: SitePolicyGate;
  /** The actions held for a person's decision (approvals/gate.ts). */
  approvals: ApprovalBook;
  /** The user's secrets (fill --secret), and the values filled so far, masked in every answer. */
  secrets: DaemonSecrets;
}

/** One request on its way through the daemon. */
export interface CommandContext {
  request: BproxyRequest;
  /** The request's deadline on the monotonic clock. */
  deadlineMono: number;
  /** When the request arrived, on the monotonic clock. */
  receivedMono: number;
  /** Filled in on the way, for the activity feed: the tab it ran in and how long pacing held it. */
  trail?: { tab?: TabRecord; waitedMs?: number };
  /**
   * Answers a request body as POST / would (parse, answer ledger, the action, its records): how a
   * batch runs each of its steps as the request it would be alone.
   */
  runStep?: (body: Record<string, unknown>) => Promise<BproxyResponse>;
}
