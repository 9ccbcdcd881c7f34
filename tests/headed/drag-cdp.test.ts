/**
 * The drag suite (tests/kit/suites/drag.ts) on the CDP driver: the daemon's embedded Chromium, headed
 * on a virtual screen (`service start --browser headed --allow-files DIR`). Headed, because headless
 * Chromium takes no drag events from DevTools (Input.dispatchDragEvent reaches no page there, and a
 * drag it runs itself stops at the first drop target that accepts), so HTML5 drag and drop and file
 * drops are proven where a person's browser runs them.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { expectNoChromiumLeft, removeProfile } from '../kit/chromium';
import { Cli } from '../kit/cli';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { defineDragSuite, type DragEnv } from '../kit/suites/drag';
import { startXvfb, type VirtualScreen } from '../kit/xvfb';

let screen: VirtualScreen | undefined;
let pages: FixtureServer | undefined;
let cli: Cli | undefined;
let starting: Promise<DragEnv> | undefined;
const folders: string[] = [];

async function start(): Promise<DragEnv> {
  screen = await startXvfb();
  pages = await serveFixtures();
  const allowed = mkdtempSync(join(tmpdir(), 'bproxy-drag-allowed-'));
  const outside = mkdtempSync(join(tmpdir(), 'bproxy-drag-outside-'));
  folders.push(allowed, outside);
  cli = new Cli('bproxy-headed-drag-cdp-', { env: { ...process.env, DISPLAY: screen.display } });
  await cli.start(['--browser', 'headed', '--allow-files', allowed]);
  return { cli, pages, browser: 'chromium', allowed, outside };
}

afterAll(async () => {
  const home = cli?.home;
  await cli?.dispose();
  await pages?.close();
  if (home) await expectNoChromiumLeft([home]);
  await screen?.close();
  for (const folder of folders) await removeProfile(folder);
}, 60_000);

defineDragSuite({ label: 'the CDP driver (headed)', start: () => (starting ??= start()) });
