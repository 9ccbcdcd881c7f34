/**
 * `@bproxy/client/lifecycle` — the daemon's lifecycle contract, shared by the daemon (which writes
 * the state directory) and its clients (which read it, start and stop the daemon): state paths,
 * configuration from the environment, safe state files, the lock and its meaning, the daemon's argv
 * and its start report. One copy of every check, whichever side runs it.
 */
export * from './config';
export * from './daemon-args';
export * from './daemon-token';
export * from './duration';
export * from './errors';
export * from './extension-ids';
export * from './files-config';
export * from './policy-store';
export * from './lockfile';
export * from './pairing-file';
export * from './paths';
export * from './port-file';
export * from './private-folder';
export * from './process-identity';
export * from './secure-file';
export * from './start-report';
export * from './state-home';
export * from './secret-keychain';
export * from './secret-store';
export * from './terminal-session';
