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

/** A Chrome extension id: 32 letters a-p (Chrome's base16 alphabet, shifted). */
export const ExtensionIdSchema = z.string().regex(/^[a-p]{32}$/);

/**
 * extensions.json in BPROXY_HOME: the extension ids trusted besides the ones built in (the development
 * id and, once published, the store id). Written by `bproxy setup|host install --extension-id`; read
 * by the daemon, the native host and the CLI.
 */
export const ExtensionsFileSchema = z.strictObject({
  ids: z.array(ExtensionIdSchema).max(64),
});
export type ExtensionsFile = z.infer<typeof ExtensionsFileSchema>;
