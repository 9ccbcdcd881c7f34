/**
 * `@bproxy/daemon/lifecycle/plain` — the zod-free part of the lifecycle: state paths, configuration,
 * safe state-file reads and the lock's meaning. The CLI finds the daemon through this on every action,
 * so it must not load the protocol schemas (the full lifecycle entry does, for pairing.json).
 */
export * from './config';
export * from './daemon-token';
export * from './errors';
export * from './lockfile';
export * from './paths';
export * from './port-file';
export * from './process-identity';
export * from './secure-file';
export * from './state-home';
export * from './daemon-http';
