/**
 * The argument policy: which of the switches a tool passes to "its Chrome" may reach the real browser
 * the bridge launches. The tools build those switches for a throwaway automation browser; the real one
 * may be the user's own profile, so the rule is an allowlist — a switch not named here is dropped and
 * logged. README.md ("The CDP bridge › Arguments") is the written form of this table; a test keeps
 * them equal.
 *
 * Switches the bridge itself interprets (transport, port, profile, headless) are consumed, never
 * passed on: the bridge chooses its own transport, port and profile for the real browser.
 */

/** Switches that only describe the window or the page, never the profile or the browser's security. */
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

export type ArgVerdict = 'forward' | 'consume' | 'drop';

export function verdictFor(arg: string): ArgVerdict {
  if (!arg.startsWith('-')) return 'forward';
  const name = switchName(arg);
  if (CONSUMED_SWITCHES.includes(name)) return 'consume';
  return FORWARDED_SWITCHES.includes(name) ? 'forward' : 'drop';
}
