/**
 * `@bproxy/protocol/plain` — the zod-free part of the contract (error catalogues, makeError, snapshot
 * placeholders, the native port's chunking, the daemon proof's cryptography) for code that must stay
 * small, above all the page bundle injected into web pages and the daemon client. Importing the
 * package root would pull zod into them.
 */
export * from './action-facts';
export * from './compatibility';
export * from './devices';
export * from './download-rules';
export * from './errors-catalogue';
export * from './native/native-chunks';
export * from './request-agent';
export * from './pairing/proof-crypto';
export * from './secret-mask';
export * from './snapshot-refs';
export * from './version';
export * from './wait-conditions';
export * from './approval-mask';
