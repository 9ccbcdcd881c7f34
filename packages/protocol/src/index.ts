/**
 * @bproxy/protocol — the wire contract, defined once. Runs in Node and in an MV3 service worker,
 * so nothing here may import a `node:` module (lint enforces it).
 */
export * from './version';
export * from './compatibility';
export * from './ids';
export * from './errors';
export * from './targets';
export * from './action-facts';
export * from './capability-groups';
export * from './wait-conditions';
export * from './actions';
export * from './schemas/files';
export * from './schemas/downloads';
export * from './download-rules';
export * from './schemas/drag';
export * from './schemas/diff';
export * from './schemas/annotate';
export * from './request-agent';
export * from './envelope';
export * from './human';
export * from './activity';
export * from './ws';
export * from './pairing/pairing';
export * from './pairing/daemon-proof';
export * from './native/native';
export * from './native/native-chunks';
export * from './lifecycle';
export * from './doctor';
export * from './validate';
export * from './json-schema';
export * from './transport';
export * from './url-policy';
export * from './site-policy';
export * from './nav-guard';
export * from './approvals';
export * from './secrets';
