/**
 * The transport that is cheapest to start in the running runtime: Bun's built-in fetch in the compiled
 * CLI (node:http there costs milliseconds to initialise), node:http under Node (whose fetch loads
 * undici lazily, slower still). Both are small and load their runtime's modules only when used, so
 * they are imported statically: a dynamic import would be one more module load on every CLI run.
 */
import type { KeepAlive, Transport } from './http';
import { fetchTransport } from './http-fetch';
import { nodeTransport } from './http-node';
import { IS_BUN } from './runtime';

/** The runtime's transport; null `keepAlive`: one connection per request, nothing left open. */
export async function openTransport(keepAlive: KeepAlive | null): Promise<Transport> {
  return IS_BUN ? fetchTransport() : nodeTransport(keepAlive);
}
