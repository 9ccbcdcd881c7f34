/**
 * The downloads suite (tests/kit/suites/downloads.ts) on the extension driver: the daemon started by
 * `service start --browser none`, headless Chromium with the built extension paired through its popup.
 * The user's own Chrome keeps its downloads where the user's go: the suite checks that nothing lands in
 * the session's folder and that `wait --download` says it cannot wait there.
 */
import { afterAll } from 'vitest';
import { pairedExtension } from '../kit/extension-driver';
import { defineDownloadsSuite } from '../kit/suites/downloads';

const paired = pairedExtension('bproxy-e2e-downloads-ext-');

afterAll(async () => {
  await paired.close();
}, 60_000);

defineDownloadsSuite({ label: 'the extension driver', filesDownloads: false, start: () => paired.start() });
