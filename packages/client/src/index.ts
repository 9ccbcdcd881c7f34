/** @bproxy/client — the one way to talk to a bproxy daemon. */
export * from './daemon-http';
