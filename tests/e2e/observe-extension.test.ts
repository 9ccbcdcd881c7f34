/**
 * The console and network suite on the extension driver: the daemon started with `--browser none`, a
 * headless Chromium with the built extension paired through its popup, the tab's log read through the
 * chrome.debugger the extension attaches to the tabs it drives.
 */
import { afterAll, expect, it } from 'vitest';
import { pairedExtension } from '../kit/extension-driver';
import { defineObserveSuite } from '../kit/suites/observe';
import type { DriverUnderTest } from '../kit/agent';

const paired = pairedExtension('bproxy-e2e-observe-ext-');
const extension: DriverUnderTest = { label: 'the extension driver', start: paired.start };

afterAll(() => paired.close(), 60_000);

defineObserveSuite(extension);

it('logged no errors in the service worker', async () => {
  await extension.start();
  expect(paired.browser()?.workerErrors).toEqual([]);
});
