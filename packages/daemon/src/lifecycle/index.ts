/**
 * The lifecycle's public face for the CLI (`bproxy service …`, finding the daemon): state paths,
 * configuration, safe state-file reads, the lock's meaning, and the start report.
 */
export * from './config';
export * from './daemon-args';
export * from './daemon-token';
export * from './errors';
export * from './lockfile';
export * from './pairing-file';
export * from './paths';
export * from './port-file';
export * from './process-identity';
export * from './secure-file';
export * from './start-report';
export * from './state-home';
