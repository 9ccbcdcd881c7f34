/**
 * The files suite (tests/kit/suites/files.ts) on the extension driver: the daemon started by `service
 * start --browser none --allow-files DIR`, headless Chromium with the built extension paired through
 * its popup. Upload goes through chrome.debugger, answering the file chooser the click opened.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { removeProfile } from '../kit/chromium';
import { pairedExtension } from '../kit/extension-driver';
import { defineFilesSuite, type FilesEnv } from '../kit/suites/files';

const allowed = mkdtempSync(join(tmpdir(), 'bproxy-files-allowed-'));
const outside = mkdtempSync(join(tmpdir(), 'bproxy-files-outside-'));
const paired = pairedExtension('bproxy-e2e-files-ext-', ['--allow-files', allowed]);
const start = async (): Promise<FilesEnv> => ({ ...(await paired.start()), allowed, outside });

afterAll(async () => {
  await paired.close();
  for (const folder of [allowed, outside]) await removeProfile(folder);
}, 60_000);

defineFilesSuite({ label: 'the extension driver', start });
