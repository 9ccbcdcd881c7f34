/**
 * Downloads as an agent meets them, written once and run on both drivers (downloads-cdp.test.ts,
 * downloads-extension.test.ts): a button on tests/fixtures/pages/downloads.html downloads a file the
 * fixture server generates (Content-Disposition: attachment); it lands in the session's downloads
 * folder, 0600, byte for byte; the action's answer or `wait --download` names it, `downloads` lists it;
 * a second one of the same name does not overwrite the first; one over the daemon's cap (the test's
 * BPROXY_DOWNLOAD_MAX_BYTES) and an executable are stopped with their codes and nothing is kept; one a
 * cross-origin frame of the tab starts (the frame from another loopback port, or another site: an
 * out-of-process frame, also one inside another) is the tab's too. By handles only, through the CLI
 * and through MCP (`--caps files`). In the user's own Chrome (the
 * extension) the suite also checks the user's Downloads folder: nothing of the agent's is left there, and
 * a download the user starts in a tab no session holds lands there, untouched and on Chrome's list.
 */
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SITE_POLICY, SitePolicySchema, type PolicyDecision } from '@bproxy/protocol';
import { Agent, type SuiteEnv } from '../agent';
import type { ExtensionBrowser } from '../extension';
import { McpClient, handleOf } from '../mcp';
import { downloadBytes, serveFixtures, type FixtureServer } from '../pages';
import { until } from '../wait';

const T = 60_000;

/** The cap the daemon of this suite is started with (BPROXY_DOWNLOAD_MAX_BYTES): 100 000 bytes. */
export const TEST_DOWNLOAD_CAP = 100_000;

export interface DownloadsDriver {
  label: string;
  start(): Promise<SuiteEnv>;
  /** The user's own Chrome: its download folder (the profile's) and the browser, for a user's own download. */
  user?: { downloadsDir: string; browser(): ExtensionBrowser | undefined };
}

interface Download {
  file: string;
  bytes: number;
  url: string;
  state: string;
  code?: string;
}

/**
 * What a person writes in BPROXY_HOME/policy.json for the "download" approval class (the daemon reads
 * the file again when it changes), keeping whatever else it says.
 */
function setDownloadClass(home: string, decision: PolicyDecision): void {
  const file = join(home, 'policy.json');
  const current = existsSync(file)
    ? SitePolicySchema.parse(JSON.parse(readFileSync(file, 'utf8')))
    : DEFAULT_SITE_POLICY;
  const next = { ...current, classes: { ...current.classes, download: decision } };
  writeFileSync(file, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** Every file (not folder) under `dir`, relative. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => statSync(join(dir, name)).isFile())
    .sort();
}

export function defineDownloadsSuite(driver: DownloadsDriver): void {
  describe(`downloads through ${driver.label}`, () => {
    let env: SuiteEnv | undefined;
    const setup = async (): Promise<{ env: SuiteEnv; agent: Agent }> => {
      if (env === undefined) {
        env = await driver.start();
        // The agent's downloads here are ones a person allowed (the "download" approval class).
        setDownloadClass(env.cli.home, 'allow');
      }
      return { env, agent: new Agent(env) };
    };
    const onDownloadsPage = async () => {
      const { env: e, agent } = await setup();
      const created = await e.cli.ok<{ session: string; tmpDir: string }>([
        'session',
        'create',
        '--pacing',
        'fast',
      ]);
      await agent.openTab(created.session, 'downloads.html');
      return { e, agent, s: created.session, folder: join(created.tmpDir, 'downloads') };
    };
    /** In the user's own Chrome: nothing of the agent's is left in the user's download folder. */
    const userFolderHasNothingOfOurs = (): void => {
      if (driver.user === undefined) return;
      expect(filesUnder(driver.user.downloadsDir)).toEqual([]);
    };

    it(
      "files a download in the session's folder, 0600, byte for byte, named by the action or wait --download and listed; the same name twice does not overwrite",
      async () => {
        const { e, agent, s, folder } = await onDownloadsPage();
        const [report] = await agent.handles(s, 'Get report');
        const clicked = await e.cli.ok<{ downloads?: Download[] }>(['click', '-s', s, report]);
        const waited = await e.cli.ok<{ download: Download }>(['wait', '-s', s, '--download']);
        expect(waited.download).toMatchObject({
          file: join(folder, 'report.csv'),
          bytes: 2048,
          state: 'completed',
        });
        expect(waited.download.url).toBe(e.pages.url('download/report.csv?bytes=2048'));
        // The click named it if it began before the click answered (it says in_progress or completed).
        if (clicked.downloads !== undefined)
          expect(clicked.downloads.map((d) => d.file)).toEqual([join(folder, 'report.csv')]);
        expect(readFileSync(join(folder, 'report.csv')).equals(downloadBytes(2048))).toBe(true);
        expect(statSync(join(folder, 'report.csv')).mode & 0o777).toBe(0o600);

        await e.cli.ok(['click', '-s', s, report]);
        const again = await e.cli.ok<{ download: Download }>(['wait', '-s', s, '--download']);
        expect(again.download.file).toBe(join(folder, 'report (2).csv'));
        expect(readFileSync(join(folder, 'report (2).csv')).equals(downloadBytes(2048))).toBe(true);

        const listed = await e.cli.ok<{ downloads: Download[] }>(['downloads', '-s', s]);
        expect(listed.downloads.map((d) => [d.file, d.bytes, d.state])).toEqual([
          [join(folder, 'report.csv'), 2048, 'completed'],
          [join(folder, 'report (2).csv'), 2048, 'completed'],
        ]);
        expect(readdirSync(folder).sort()).toEqual(['report (2).csv', 'report.csv']);
        userFolderHasNothingOfOurs();
        await agent.close(s);
      },
      T,
    );

    it(
      'stops a download over the cap and an executable, each with its code, and keeps nothing of them',
      async () => {
        const { e, agent, s, folder } = await onDownloadsPage();
        const [archive, installer] = await agent.handles(s, 'Get archive', 'Get installer');
        await e.cli.ok(['click', '-s', s, archive]);
        const big = await e.cli.fail(['wait', '-s', s, '--download']);
        expect(big.code).toBe('DOWNLOAD_TOO_LARGE');
        await e.cli.ok(['click', '-s', s, installer]);
        const exe = await e.cli.fail(['wait', '-s', s, '--download']);
        expect(exe.code).toBe('DOWNLOAD_TYPE_REFUSED');

        const listed = await e.cli.ok<{ downloads: Download[] }>(['downloads', '-s', s]);
        expect(listed.downloads.map((d) => [d.url.split('/').pop(), d.state, d.code])).toEqual([
          ['archive.bin?bytes=300000', 'refused', 'DOWNLOAD_TOO_LARGE'],
          ['setup.exe?bytes=1024', 'refused', 'DOWNLOAD_TYPE_REFUSED'],
        ]);
        expect(existsSync(folder) ? readdirSync(folder) : []).toEqual([]);
        // Nothing left in the daemon's staging folder either.
        const staging = join(dirname(dirname(dirname(folder))), 'downloads-staging');
        expect(existsSync(staging) ? readdirSync(staging) : []).toEqual([]);
        userFolderHasNothingOfOurs();
        await agent.close(s);
      },
      T,
    );

    it(
      'keeps nothing of a download while the "download" approval class asks: APPROVAL_REQUIRED where a person can answer (the extension), else POLICY_DENIED',
      async () => {
        const { e, agent, s, folder } = await onDownloadsPage();
        setDownloadClass(e.cli.home, 'ask');
        try {
          const [report] = await agent.handles(s, 'Get report');
          await e.cli.ok(['click', '-s', s, report]);
          const held = await e.cli.fail(['wait', '-s', s, '--download']);
          const code = driver.user === undefined ? 'POLICY_DENIED' : 'APPROVAL_REQUIRED';
          expect(held.code).toBe(code);
          const listed = await e.cli.ok<{ downloads: Download[] }>(['downloads', '-s', s]);
          expect(listed.downloads.map((d) => [d.state, d.code])).toEqual([['refused', code]]);
          expect(existsSync(folder) ? readdirSync(folder) : []).toEqual([]);
          const staging = join(dirname(dirname(dirname(folder))), 'downloads-staging');
          expect(existsSync(staging) ? readdirSync(staging) : []).toEqual([]);
          userFolderHasNothingOfOurs();
        } finally {
          setDownloadClass(e.cli.home, 'allow');
        }
        await agent.close(s);
      },
      T,
    );

    describe('from a cross-origin frame', () => {
      const partners: FixtureServer[] = [];
      afterAll(async () => {
        for (const partner of partners) await partner.close();
      });
      /**
       * A tab on downloads-frame.html whose frame is downloads.html from `host` (through a frame from
       * `via` first, when given: a frame in a frame): its report, filed.
       */
      const fromFrame = async (host: string, via?: string): Promise<void> => {
        const { env: e, agent } = await setup();
        const partner = await serveFixtures(host);
        partners.push(partner);
        let src = encodeURIComponent(partner.url('downloads.html'));
        if (via !== undefined) {
          const middle = await serveFixtures(via);
          partners.push(middle);
          src = encodeURIComponent(middle.url(`downloads-frame.html?src=${src}`));
        }
        const created = await e.cli.ok<{ session: string; tmpDir: string }>([
          'session',
          'create',
          '--pacing',
          'fast',
        ]);
        const s = created.session;
        const folder = join(created.tmpDir, 'downloads');
        await agent.openTab(s, `downloads-frame.html?src=${src}`);
        const report = await until('the framed button', async () => {
          const all = await agent.elements(s);
          return all.find((el) => el.name === 'Get report')?.handle;
        });
        await e.cli.ok(['click', '-s', s, report]);
        const waited = await e.cli.ok<{ download: Download }>(['wait', '-s', s, '--download']);
        expect(waited.download).toMatchObject({
          file: join(folder, 'report.csv'),
          bytes: 2048,
          state: 'completed',
          url: partner.url('download/report.csv?bytes=2048'),
        });
        expect(readFileSync(join(folder, 'report.csv')).equals(downloadBytes(2048))).toBe(true);
        userFolderHasNothingOfOurs();
        await agent.close(s);
      };

      it(
        "files a download a cross-origin frame of the tab starts (the frame from another port) in the session's folder",
        () => fromFrame('127.0.0.1'),
        T,
      );

      // Another site runs in another process: its download is announced on the frame's own target (in
      // the user's Chrome: a child session of the tab's debugger, frame-sessions.ts), not the tab's.
      it(
        "files a download an out-of-process frame of the tab starts (another site, 127.0.0.2) in the session's folder",
        () => fromFrame('127.0.0.2'),
        T,
      );

      it(
        "files a download an out-of-process frame in an out-of-process frame starts (127.0.0.3 in 127.0.0.2) in the session's folder",
        () => fromFrame('127.0.0.3', '127.0.0.2'),
        T,
      );
    });

    const user = driver.user;
    if (user !== undefined)
      it(
        "leaves the user's own download in a tab no session holds where the user's go — the same file an agent downloaded a moment before: untouched, on Chrome's list, nothing in a session's folder",
        async () => {
          const { e, agent, s, folder } = await onDownloadsPage();
          const browser = user.browser();
          if (browser === undefined) throw new Error('no browser');
          // The agent downloads the report first: its tab's announcement is used up by its own download.
          const [report] = await agent.handles(s, 'Get report');
          await e.cli.ok(['click', '-s', s, report]);
          const agents = await e.cli.ok<{ download: Download }>(['wait', '-s', s, '--download']);
          expect(agents.download).toMatchObject({ file: join(folder, 'report.csv'), state: 'completed' });
          // The user's own tab, on the same page as the agent's: a person clicks the same button.
          const page = await browser.context.newPage();
          try {
            await page.goto(e.pages.url('downloads.html'));
            await page.getByRole('button', { name: 'Get report' }).click();
            const mine = join(user.downloadsDir, 'report.csv');
            await until('the user download to finish', () =>
              existsSync(mine) && statSync(mine).size === 2048 ? true : undefined,
            );
            expect(readFileSync(mine).equals(downloadBytes(2048))).toBe(true);
            const worker = await browser.worker();
            const listed = await until(
              "the user's download on Chrome's list, the agent's off it",
              async () => {
                const items = await worker.evaluate(() =>
                  (
                    globalThis as unknown as {
                      chrome: {
                        downloads: { search(q: object): Promise<{ filename: string; state: string }[]> };
                      };
                    }
                  ).chrome.downloads.search({}),
                );
                const found = items.find((i) => i.filename === mine && i.state === 'complete');
                const ours = items.some((i) => i.filename.includes('bproxy-downloads'));
                return found === undefined || ours ? undefined : items;
              },
            );
            // The user's download is on the list; the agent's was taken off it.
            expect(listed.map((i) => i.filename)).toEqual([mine]);
            expect(filesUnder(user.downloadsDir)).toEqual(['report.csv']);
            expect(readdirSync(folder)).toEqual(['report.csv']);
            const listedHere = await e.cli.ok<{ downloads: Download[] }>(['downloads', '-s', s]);
            expect(listedHere.downloads.map((d) => d.file)).toEqual([join(folder, 'report.csv')]);
          } finally {
            await page.close();
          }
          await agent.close(s);
        },
        T,
      );

    describe('through MCP', () => {
      let mcp: McpClient | undefined;
      afterAll(async () => {
        await mcp?.close();
      });

      it(
        'downloads by handle, waits for it and lists it',
        async () => {
          const { env: e } = await setup();
          mcp = await McpClient.start(e.cli.environment(), ['--browser', e.browser, '--caps', 'files']);
          await mcp.ok('tab_open', { url: e.pages.url('downloads.html') });
          const snapshot = await mcp.ok('snapshot');
          await mcp.ok('click', { target: handleOf(snapshot, /Get report/) });
          const waited = await mcp.ok('wait', { download: true });
          expect(waited).toContain('report.csv');
          expect(waited).toContain('completed');
          const listed = await mcp.ok('downloads');
          expect(listed).toContain('report.csv');
          const refused = await mcp.call('click', { target: handleOf(snapshot, /Get installer/) });
          expect(refused.isError).toBe(false);
          const stopped = await mcp.call('wait', { download: true });
          expect(stopped.isError).toBe(true);
          expect(stopped.text).toContain('DOWNLOAD_TYPE_REFUSED');
        },
        T,
      );
    });
  });
}
