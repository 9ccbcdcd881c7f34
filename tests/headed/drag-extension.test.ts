/**
 * The drag suite (tests/kit/suites/drag.ts) on the extension driver: the daemon started by `service
 * start --browser none --allow-files DIR`, Chromium with the built extension headed on a virtual
 * screen, paired through its popup; the gestures go through chrome.debugger. Headed for the reason
 * drag-cdp.test.ts gives.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { removeProfile } from '../kit/chromium';
import { pairedExtension } from '../kit/extension-driver';
import { defineDragSuite, type DragEnv } from '../kit/suites/drag';
import { startXvfb, type VirtualScreen } from '../kit/xvfb';

let screen: VirtualScreen | undefined;
const allowed = mkdtempSync(join(tmpdir(), 'bproxy-drag-allowed-'));
const outside = mkdtempSync(join(tmpdir(), 'bproxy-drag-outside-'));
const paired = pairedExtension('bproxy-headed-drag-ext-', ['--allow-files', allowed], {
  display: () => {
    if (screen === undefined) throw new Error('no virtual screen');
    return screen.display;
  },
});
const start = async (): Promise<DragEnv> => {
  screen ??= await startXvfb();
  return { ...(await paired.start()), allowed, outside };
};

afterAll(async () => {
  await paired.close();
  await screen?.close();
  for (const folder of [allowed, outside]) await removeProfile(folder);
}, 60_000);

defineDragSuite({ label: 'the extension driver (headed)', start });
