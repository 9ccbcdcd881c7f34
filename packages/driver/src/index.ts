/**
 * @bproxy/driver — the kit both browser drivers (the extension's service worker and the CDP driver)
 * execute forwarded requests with: the total handler table, the failure type, deadlines, the
 * executed-request table interface and the in-page call shim. No `node:` and no `chrome.*`: it runs in
 * Node and in a service worker alike.
 */
export * from './deadline';
export * from './executed-requests';
export * from './failure';
export * from './handler-table';
export * from './page-call';
