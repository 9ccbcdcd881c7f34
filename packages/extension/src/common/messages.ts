/**
 * Runtime messages between the popup and the service worker. The worker owns the pairing state and
 * the connection; the popup asks for status, hands over a fresh bootstrap, or asks to forget the pairing.
 */
import { z } from 'zod';
import type { AutoPairState, ConnectionStatus, HostStatus } from './worker-status';

export const PopupMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('status') }),
  z.strictObject({ type: z.literal('pair'), bootstrap: z.unknown() }),
  z.strictObject({ type: z.literal('unpair') }),
  /** The user shares one of their open tabs with agents (the popup's "Share this tab"). */
  z.strictObject({ type: z.literal('share'), tabId: z.number().int().min(0) }),
  /** The user's Start bproxy: the native host starts the daemon (it reconnects by itself after). */
  z.strictObject({ type: z.literal('start_daemon') }),
  /** Which session holds a tab, if any (the popup offers Share only for a tab no session holds). */
  z.strictObject({ type: z.literal('tab_session'), tabId: z.number().int().min(0) }),
]);
export type PopupMessage = z.infer<typeof PopupMessageSchema>;

export interface WorkerStatus extends ConnectionStatus {
  /** The native host: connected, not installed (`bproxy setup`), refused, failed. */
  host: HostStatus;
  /** The last automatic pairing through the host. */
  autoPairing: AutoPairState;
  drivenTabs: number;
  /** The tabs the debugger is on now (Chrome shows its debugging bar while it is). */
  debuggerTabs: number[];
  inFlight: number;
  version: string;
}

export type PairAnswer = { ok: true } | { ok: false; reason: string };

/** A shared tab's session, for the user to hand to a CLI agent (`bproxy -s ID …`). */
export type ShareAnswer = { ok: true; session: string; tab: string } | { ok: false; reason: string };

/** The session holding a tab (the answer to `tab_session`), or null when none does. */
export type TabSession = { session: string; tab: string; paused: boolean } | null;

/** A browser WebSocket cannot tell a refused upgrade (401) from a closed port; the popup's probe can. */
export const UNREACHABLE = 'the daemon is not reachable, or it refused the token';
