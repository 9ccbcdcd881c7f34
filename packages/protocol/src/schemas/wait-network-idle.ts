/** `wait --network-idle`: the part of wait's params that waits for the tab's network to go quiet. */
import { z } from 'zod';

/** Until the tab has had no request in flight for NETWORK_IDLE_MS (wait-conditions.ts). */
export const NetworkIdleWaitShape = { networkIdle: z.boolean().optional() };
