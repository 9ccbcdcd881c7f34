/**
 * The headless drag suite (tests/kit/suites/drag-headless.ts) on the extension driver: the real daemon
 * and CLI, headless Chromium with the built extension paired through its popup, input through
 * chrome.debugger.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { removeProfile } from '../kit/chromium';
import { pairedExtension } from '../kit/extension-driver';
import { defineHeadlessDragSuite } from '../kit/suites/drag-headless';

const allowed = mkdtempSync(join(tmpdir(), 'bproxy-drag-allowed-'));
const paired = pairedExtension('bproxy-e2e-drag-headless-ext-', ['--allow-files', allowed]);

afterAll(async () => {
  await paired.close();
  await removeProfile(allowed);
}, 60_000);

defineHeadlessDragSuite({
  label: 'the extension driver',
  start: async () => ({ ...(await paired.start()), allowed }),
});
