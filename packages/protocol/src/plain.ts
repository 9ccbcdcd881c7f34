/**
 * `@bproxy/protocol/plain` — the zod-free part of the contract (error catalogues, makeError, snapshot
 * placeholders, the native port's chunking) for code that must stay small, above all the page bundle
 * injected into web pages. Importing the package root would pull zod into that bundle.
 */
export * from './errors-catalogue';
export * from './native-chunks';
export * from './snapshot-refs';
export * from './version';
