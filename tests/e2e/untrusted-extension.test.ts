/**
 * The page-text-as-data suite on the extension driver: the daemon started with `--browser none`, a
 * headless Chromium with the built extension paired through its popup.
 */
import { afterAll, expect, it } from 'vitest';
import { pairedExtension } from '../kit/extension-driver';
import { defineUntrustedSuite } from '../kit/suites/untrusted';
import type { DriverUnderTest } from '../kit/agent';

const paired = pairedExtension('bproxy-e2e-untrusted-ext-');
const extension: DriverUnderTest = { label: 'the extension driver', start: paired.start };

afterAll(() => paired.close(), 60_000);

defineUntrustedSuite(extension);

it('logged no errors in the service worker', async () => {
  await extension.start();
  expect(paired.browser()?.workerErrors).toEqual([]);
});
