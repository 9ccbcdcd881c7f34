/** Which runtime runs the client: the CLI also ships as a Bun-compiled binary, whose cheapest transport differs. */

/** True in a Bun-compiled binary (and under `bun run`). */
export const IS_BUN = 'Bun' in globalThis;
