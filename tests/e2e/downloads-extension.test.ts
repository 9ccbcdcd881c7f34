/**
 * The downloads suite (tests/kit/suites/downloads.ts) on the extension driver: the daemon started by
 * `service start --browser none` with a small download cap (BPROXY_DOWNLOAD_MAX_BYTES), headless
 * Chromium with the built extension paired through its popup, downloading as a user's Chrome does
 * (Chrome's own handling, into the profile's download folder — a temporary one here). An agent's
 * download is filed in its session's folder and nothing of it is left in the user's folder; the user's
 * own download stays in the user's folder, untouched.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { pairedExtension } from '../kit/extension-driver';
import { defineDownloadsSuite, TEST_DOWNLOAD_CAP } from '../kit/suites/downloads';

const downloadsDir = mkdtempSync(join(tmpdir(), 'bproxy-e2e-user-downloads-'));
const paired = pairedExtension('bproxy-e2e-downloads-ext-', [], {
  env: { BPROXY_DOWNLOAD_MAX_BYTES: String(TEST_DOWNLOAD_CAP) },
  downloadsDir,
});

afterAll(async () => {
  await paired.close();
  rmSync(downloadsDir, { recursive: true, force: true });
}, 60_000);

defineDownloadsSuite({
  label: 'the extension driver',
  start: () => paired.start(),
  user: { downloadsDir, browser: () => paired.browser() },
});
