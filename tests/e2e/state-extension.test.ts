/**
 * Logins, cookies and emulation in the user's own Chrome: the state suite (tests/kit/suites/state.ts)
 * with the built extension paired to a daemon that launches no browser of its own. The suite asserts
 * what is refused there — reading or exporting the user's cookies until the user allows it,
 * overwriting a cookie the browser has, emulation beyond the tab's viewport and color scheme.
 */
import { afterAll } from 'vitest';
import { pairedExtension } from '../kit/extension-driver';
import { defineStateSuite } from '../kit/suites/state';

const paired = pairedExtension('bproxy-e2e-state-ext-');

afterAll(() => paired.close(), 60_000);

defineStateSuite({
  label: 'the extension driver (the user’s own Chrome)',
  userChrome: true,
  start: paired.start,
});
