import { z } from 'zod';

/** The exact JSON `bproxy service start|stop|status` print on stdout. */
export const StartOutputSchema = z.strictObject({
  running: z.literal(true),
  pid: z.number().int(),
  port: z.number().int(),
  pairingCode: z.string(),
  pairingExpiresAt: z.number(),
});
export const StopOutputSchema = z.strictObject({ running: z.literal(false) });
export const StatusOutputSchema = z.union([
  z.strictObject({
    running: z.literal(true),
    pid: z.number().int(),
    port: z.number().int(),
    version: z.string(),
    protocolVersion: z.number().int(),
  }),
  z.strictObject({ running: z.literal(false), version: z.string(), protocolVersion: z.number().int() }),
]);

/** pairing.json in BPROXY_HOME, written by the daemon before the port file. */
export const PairingFileSchema = z.strictObject({
  pairingCode: z.string(),
  pairingExpiresAt: z.number(),
  issuedAt: z.number(),
});
export type PairingFile = z.infer<typeof PairingFileSchema>;
