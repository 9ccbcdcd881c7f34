/** Debug actions: traces, status, the driver log. */
import { z } from 'zod';
import { SessionInfoSchema } from './common';

// --- debug --------------------------------------------------------------------------------------------

export const TraceSchema = z.strictObject({
  id: z.string(),
  action: z.string(),
  session: z.string().optional(),
  receivedAt: z.number(),
  elapsedMs: z.number(),
  ok: z.boolean(),
  errorCode: z.string().optional(),
});
export type Trace = z.infer<typeof TraceSchema>;
export const DebugLastParams = z.strictObject({ limit: z.number().int().min(1).max(200).optional() });
export const DebugLastResult = z.strictObject({ traces: z.array(TraceSchema) });
export const ClientInfoSchema = z.strictObject({
  name: z.string(),
  kind: z.string(),
  connected: z.boolean(),
  connectedAt: z.number(),
  tabs: z.number().int(),
  version: z.string().optional(),
});
export const DebugStatusResult = z.strictObject({
  version: z.string(),
  protocolVersion: z.number().int(),
  pid: z.number().int(),
  port: z.number().int(),
  uptimeMs: z.number(),
  clients: z.array(ClientInfoSchema),
  sessions: z.array(SessionInfoSchema),
  pending: z.number().int(),
  handles: z.number().int(),
  paired: z.boolean(),
});
export const DebugLogParams = z.strictObject({ limit: z.number().int().min(1).max(500).optional() });
export const DebugLogResult = z.strictObject({ entries: z.array(z.record(z.string(), z.unknown())) });
