/**
 * The argument policy: which of the switches a tool passes to "its Chrome" may reach the real browser
 * the bridge launches. Whose profile that browser runs on decides it:
 *
 *   - the tool's own profile (the tool's `--user-data-dir`, with no BPROXY_BRIDGE_USER_DATA_DIR set,
 *     on this machine): the tool's throwaway automation browser, no user data at stake — every switch
 *     Chrome would accept passes, except the few that would open the real browser's own DevTools port
 *     (behind the bridge, ungated) to more callers;
 *   - a profile of the user's (BPROXY_BRIDGE_USER_DATA_DIR, the bridge's default profile, Windows
 *     Chrome's profile from WSL): an allowlist of window and page switches, everything else dropped;
 *   - a browser the bridge attaches to: it is already running, nothing passes.
 *
 * README.md ("The CDP bridge › Arguments") is the written form of these tables; a test keeps them
 * equal. Switches the bridge itself interprets (transport, port, profile, headless) are consumed,
 * never passed on: the bridge chooses its own transport, port and profile for the real browser.
 */

/** Whose profile a launched browser runs on. */
export type ProfileOwner = 'tool' | 'user';

/** On a profile of the user's: switches that only describe the window or the page. */
export const FORWARDED_SWITCHES: readonly string[] = [
  '--window-size',
  '--window-position',
  '--start-maximized',
  '--lang',
  '--accept-lang',
  '--force-device-scale-factor',
  '--hide-scrollbars',
  '--mute-audio',
  '--screen-info',
  '--hide-crash-restore-bubble',
  '--no-first-run',
  '--no-default-browser-check',
  '--proxy-server',
  '--proxy-bypass-list',
];

/**
 * Never passed, not even on the tool's own profile: they would let callers other than the bridge
 * (web pages, other pipes) reach the real browser's DevTools, which the bridge keeps on loopback.
 */
export const NEVER_FORWARDED: readonly string[] = ['--remote-allow-origins', '--remote-debugging-io-pipes'];

/** Switches the bridge reads and replaces with its own choice. */
export const CONSUMED_SWITCHES: readonly string[] = [
  '--remote-debugging-pipe',
  '--remote-debugging-port',
  '--remote-debugging-address',
  '--user-data-dir',
  '--headless',
];

/** The switch name of `--name=value` or `--name`. */
export function switchName(arg: string): string {
  const eq = arg.indexOf('=');
  return eq === -1 ? arg : arg.slice(0, eq);
}

export function isConsumed(arg: string): boolean {
  return arg.startsWith('-') && CONSUMED_SWITCHES.includes(switchName(arg));
}

/** Whether `arg` (a switch not consumed, or a page to open) may reach a browser launched on `owner`'s profile. */
export function mayPass(arg: string, owner: ProfileOwner): boolean {
  if (!arg.startsWith('-')) return true;
  const name = switchName(arg);
  if (CONSUMED_SWITCHES.includes(name) || NEVER_FORWARDED.includes(name)) return false;
  return owner === 'tool' || FORWARDED_SWITCHES.includes(name);
}

/** The tool's arguments split into what a browser launched on `owner`'s profile gets and what is dropped. */
export function applyArgPolicy(
  args: readonly string[],
  owner: ProfileOwner,
): { forwarded: string[]; dropped: string[] } {
  const forwarded: string[] = [];
  const dropped: string[] = [];
  for (const arg of args) (mayPass(arg, owner) ? forwarded : dropped).push(arg);
  return { forwarded, dropped };
}
