/**
 * The commands the extension asks a person to run, in one place: each one works as installed
 * (`bproxy …`, never a bare `npx bproxy`, which fetches whatever the registry holds under that name)
 * and names this extension's real id, which Chrome gives every extension page as chrome.runtime.id.
 */

/** This extension's id as Chrome knows it; a pointer to chrome://extensions where there is none (tests). */
export function ownExtensionId(): string {
  const runtime = (globalThis as { chrome?: { runtime?: { id?: unknown } } }).chrome?.runtime;
  return typeof runtime?.id === 'string' && runtime.id !== '' ? runtime.id : 'ID (see chrome://extensions)';
}

/** Registers the native host and trusts this extension's id, in one command. */
export function setupCommand(id: string = ownExtensionId()): string {
  return `bproxy setup --extension-id ${id}`;
}

/** Trusts this extension's id (host and daemon alike) and registers the host for it. */
export function trustCommand(id: string = ownExtensionId()): string {
  return `bproxy host install --extension-id ${id}`;
}

/** The host refused this extension's origin: the id is not in the trusted set. */
export function untrustedHostHint(id: string = ownExtensionId()): string {
  return `The native host does not trust this extension (id ${id}): run \`${trustCommand(id)}\`, then reload the extension.`;
}

/** The daemon's gate refused this extension's origin (HTTP 401). */
export function untrustedDaemonHint(id: string = ownExtensionId()): string {
  return `The daemon refused this extension (HTTP 401): its id ${id} is not trusted. Run \`${trustCommand(id)}\`, then \`bproxy service stop\` so that the daemon starts again trusting it.`;
}

/** A word a shell reads as one: as it is when plain, else quoted (POSIX single quotes, or Windows double). */
function shellWord(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  if (/^[a-zA-Z]:\\/.test(word)) return `"${word}"`;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The line a person pastes in a terminal to drive a shared tab: the CLI launcher the native host wrote
 * (its absolute path, so it runs where `bproxy` is not on PATH — a tarball or extension install), else
 * `bproxy` as installed on PATH.
 */
export function cliLine(session: string, cli?: string): string {
  return `${cli === undefined ? 'bproxy' : shellWord(cli)} -s ${session} snapshot`;
}
