/**
 * Downloads as an agent meets them, written once and run on both drivers (downloads-cdp.test.ts,
 * downloads-extension.test.ts): a button on tests/fixtures/pages/downloads.html downloads a file the
 * fixture server generates (Content-Disposition: attachment); it lands in the session's downloads
 * folder, 0600, byte for byte; the action's answer or `wait --download` names it, `downloads` lists it;
 * a second one of the same name does not overwrite the first; one over the daemon's cap (the test's
 * BPROXY_DOWNLOAD_MAX_BYTES) and an executable are stopped with their codes and nothing is kept. By
 * handles only, through the CLI and through MCP (`--caps files`).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Agent, type DriverUnderTest, type SuiteEnv } from '../agent';
import { McpClient, handleOf } from '../mcp';
import { downloadBytes } from '../pages';

const T = 60_000;

/** The cap the daemon of this suite is started with (BPROXY_DOWNLOAD_MAX_BYTES): 100 000 bytes. */
export const TEST_DOWNLOAD_CAP = 100_000;

export interface DownloadsDriver extends Omit<DriverUnderTest, 'start'> {
  start(): Promise<SuiteEnv>;
  /**
   * Whether bproxy files this browser's downloads: a browser it launched. The user's own Chrome (the
   * extension) keeps its downloads where the user's go, and `wait --download` says so.
   */
  filesDownloads: boolean;
}

interface Download {
  file: string;
  bytes: number;
  url: string;
  state: string;
  code?: string;
}

export function defineDownloadsSuite(driver: DownloadsDriver): void {
  describe(`downloads through ${driver.label}`, () => {
    let env: SuiteEnv | undefined;
    const setup = async (): Promise<{ env: SuiteEnv; agent: Agent }> => {
      env ??= await driver.start();
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

    if (!driver.filesDownloads) {
      it(
        "leaves a download where the browser's go: nothing in the session's folder, wait --download UNSUPPORTED_ACTION, through the CLI and MCP",
        async () => {
          const { e, agent, s, folder } = await onDownloadsPage();
          const [report] = await agent.handles(s, 'Get report');
          await e.cli.ok(['click', '-s', s, report]);
          expect((await e.cli.fail(['wait', '-s', s, '--download'])).code).toBe('UNSUPPORTED_ACTION');
          expect(await e.cli.ok<{ downloads: Download[] }>(['downloads', '-s', s])).toEqual({
            downloads: [],
          });
          expect(existsSync(folder) ? readdirSync(folder) : []).toEqual([]);
          await agent.close(s);
          const mcp = await McpClient.start(e.cli.environment(), ['--browser', e.browser, '--caps', 'files']);
          try {
            await mcp.ok('tab_open', { url: e.pages.url('downloads.html') });
            const waited = await mcp.call('wait', { download: true });
            expect(waited.isError).toBe(true);
            expect(waited.text).toContain('UNSUPPORTED_ACTION');
          } finally {
            await mcp.close();
          }
        },
        T,
      );
      return;
    }

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
