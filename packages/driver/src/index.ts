/**
 * @bproxy/driver — the kit both browser drivers (the extension's service worker and the CDP driver)
 * execute forwarded requests with: the total handler table, the failure type, deadlines, the
 * executed-request table interface, the in-page call shim, and trusted input (click, hover, type and
 * press as the browser's own events, over whatever channel a driver has to send CDP input commands).
 * No `node:` and no `chrome.*`: it runs in Node and in a service worker alike.
 */
export * from './deadline';
export * from './executed-requests';
export * from './failure';
export * from './handler-table';
export * from './page-call';
export * from './input/focus-at';
export * from './input/input-events';
export * from './input/keys';
export * from './input/trusted-actions';
export * from './files/upload';
export * from './files/pdf';
export * from './state/state-commands';
export * from './state/storage-state';
export * from './state/emulation';
export * from './observe/observer';
export * from './observe/network-idle';
export * from './observe/reads';
export * from './observe/redact';
export * from './observe/tab-log';
export * from './frames/frame-pages';
export * from './frames/frame-refs';
export * from './frames/frame-reads';
export * from './frames/frame-input';
export * from './input/drag';
export * from './screenshot/scale';
