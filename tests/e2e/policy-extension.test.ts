/**
 * The site-policy suite (tests/kit/suites/policy.ts) on the extension driver: the real daemon and CLI,
 * headless Chromium with the built extension paired through its popup.
 */
import { afterAll } from 'vitest';
import { pairedExtension } from '../kit/extension-driver';
import { definePolicySuite } from '../kit/suites/policy';

const paired = pairedExtension('bproxy-e2e-policy-ext-');

afterAll(() => paired.close(), 60_000);

definePolicySuite({ label: 'the extension driver', start: paired.start });
