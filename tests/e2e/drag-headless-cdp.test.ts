/**
 * drag in headless Chromium (the CDP driver's default browser), which hands dispatched drag events to
 * no page: a pointer-event sortable is still dragged, while a file drop is refused with
 * UNSUPPORTED_ACTION and a sentence, never answered as done. The headed tier
 * (tests/headed/drag-*.test.ts) proves both kinds where a person's browser runs them.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../kit/agent';
import { expectNoChromiumLeft, removeProfile } from '../kit/chromium';
import { Cli } from '../kit/cli';
import { serveFixtures, type FixtureServer } from '../kit/pages';

let pages: FixtureServer | undefined;
let cli: Cli | undefined;
let agent: Agent | undefined;
const allowed = mkdtempSync(join(tmpdir(), 'bproxy-drag-allowed-'));

beforeAll(async () => {
  pages = await serveFixtures();
  cli = new Cli('bproxy-e2e-drag-headless-');
  await cli.start(['--browser', 'headless', '--allow-files', allowed]);
  agent = new Agent({ cli, pages, browser: 'headless' });
}, 90_000);

afterAll(async () => {
  const home = cli?.home;
  await cli?.dispose();
  await pages?.close();
  if (home) await expectNoChromiumLeft([home]);
  await removeProfile(allowed);
}, 60_000);

const a = (): Agent => {
  if (!agent) throw new Error('did not start');
  return agent;
};

describe('drag in headless Chromium', () => {
  it('drags a pointer sortable, and refuses a file drop with a sentence, the page seeing no drop', async () => {
    const s = await a().session('kanban.html');
    const [first, last] = await a().handles(s, 'Item A1', 'Item A3');
    await a().cli.ok(['drag', '-s', s, first, last]);
    expect(await a().text(s)).toContain('Order: A2, A3, A1');

    await a().cli.ok(['navigate', '-s', s, a().url('upload.html')]);
    const [zone] = await a().handles(s, 'Drop files here');
    writeFileSync(join(allowed, 'x.txt'), 'x');
    const refused = await a().cli.fail(['drag', '-s', s, join(allowed, 'x.txt'), '--to', zone]);
    expect(refused.code).toBe('UNSUPPORTED_ACTION');
    expect(refused.message).toContain('headed browser');
    expect((await a().text(s)).split('\n').some((l) => l.startsWith('drop '))).toBe(false);
    await a().close(s);
  }, 60_000);
});
