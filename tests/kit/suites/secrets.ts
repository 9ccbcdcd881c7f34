/**
 * Secrets the model never sees, the same on every driver: the user adds a secret for the bank's origin
 * (value on stdin); an agent fills it by name through the CLI and through MCP, and the bank receives
 * it; the same fill on a look-alike origin (another port) and into a cross-origin frame of the bank's
 * own page is refused with SECRET_ORIGIN_MISMATCH and nothing is filled; an unknown name has its own
 * code. Then every output of the run — CLI stdout and stderr, MCP replies and the server's stderr,
 * every file under BPROXY_HOME (the daemon's debug log included) — is searched for the value: none.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DriverUnderTest, SuiteEnv } from '../agent';
import { CLI, McpClient } from '../mcp';
import { serveSecretSites, type SecretSites } from '../secret-sites';
import { until } from '../wait';

const T = 90_000;
/** What the user types once; no answer of the run may carry it. */
const VALUE = 'Hunter2-s3cr3t-K9q';

interface Element {
  handle: string;
  name: string;
  tag: string;
  frame?: string;
}

/** Every file under `dir`, its text (the daemon's logs, its state files, the secret store). */
function filesUnder(dir: string): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    const stats = statSync(path, { throwIfNoEntry: false });
    if (stats?.isDirectory()) out.push(...filesUnder(path));
    else if (stats?.isFile()) out.push({ path, text: readFileSync(path, 'latin1') });
  }
  return out;
}

export function defineSecretSuite(driver: DriverUnderTest): void {
  describe(`secrets on ${driver.label}`, () => {
    let env: SuiteEnv | undefined;
    let sites: SecretSites | undefined;
    /** Everything the run printed or answered, searched for the value at the end. */
    const outputs: string[] = [];
    const e = (): { env: SuiteEnv; sites: SecretSites } => {
      if (!env || !sites) throw new Error(`${driver.label} did not start`);
      return { env, sites };
    };
    const run = async (args: string[]) => {
      const result = await e().env.cli.run(args);
      outputs.push(result.stdout, result.stderr);
      return result;
    };
    const ok = async <T>(args: string[]): Promise<T> => {
      const result = await run(args);
      if (result.code !== 0) throw new Error(`bproxy ${args.join(' ')} failed: ${result.stderr}`);
      return result.json as T;
    };
    const failure = async (args: string[]): Promise<{ code: string; message: string }> => {
      const result = await run(args);
      expect(result.code, result.stdout).not.toBe(0);
      return (result.json as { error: { code: string; message: string } }).error;
    };
    /** `bproxy secret add` with the value on stdin, as a person pipes it in. */
    const addSecret = (name: string, origin: string, value: string) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [CLI, 'secret', 'add', name, '--origin', origin], {
          env: e().env.cli.environment(),
          stdio: ['pipe', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
        child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
        child.on('close', (code) => resolve({ code, stdout, stderr }));
        child.stdin.end(`${value}\n`);
      });
    const elements = async (s: string, want: (all: Element[]) => boolean): Promise<Element[]> =>
      until('the form to be read', async () => {
        const r = await ok<{ elements: Element[] }>(['elements', '-s', s]);
        return want(r.elements) ? r.elements : undefined;
      });
    const named = (all: Element[], name: string, frame?: string): string => {
      const found = all.find((x) => x.name === name && x.frame === frame);
      if (!found) throw new Error(`no "${name}" in ${JSON.stringify(all)}`);
      return found.handle;
    };
    const session = async (url: string): Promise<string> => {
      const { session: s } = await ok<{ session: string }>(['session', 'create', '--pacing', 'fast']);
      await ok(['tab', 'open', '-s', s, url, '--browser', e().env.browser]);
      return s;
    };

    beforeAll(async () => {
      env = await driver.start();
      sites = await serveSecretSites();
      const added = await addSecret('bank', sites.bankOrigin, VALUE);
      outputs.push(added.stdout, added.stderr);
      expect(added.code, added.stderr).toBe(0);
      expect(JSON.parse(added.stdout)).toMatchObject({ added: 'bank', origin: sites.bankOrigin });
    }, 120_000);
    afterAll(async () => {
      await sites?.close();
    });

    it(
      'fills a secret by name into the bank’s form: the bank receives it, the answers and the next snapshot never show it',
      async () => {
        const { sites: f } = e();
        const listed = await ok<{ secrets: { name: string; origin: string }[] }>(['secret', 'list']);
        expect(listed.secrets).toEqual([expect.objectContaining({ name: 'bank', origin: f.bankOrigin })]);

        const s = await session(f.login);
        const all = await elements(s, (x) => x.some((el) => el.name === 'Password'));
        await ok(['fill', '-s', s, named(all, 'User'), 'ada']);
        const filled = await ok<Record<string, unknown>>([
          'fill',
          '-s',
          s,
          named(all, 'Password'),
          '--secret',
          'bank',
          '--diff',
        ]);
        expect(filled).toMatchObject({ navigated: false });
        // The <input type=text> now holds the value; no read gives it back.
        const snap = await ok<{ snapshot: string }>(['snapshot', '-s', s]);
        expect(snap.snapshot).toContain('Password');
        expect(snap.snapshot).not.toContain(VALUE);
        const read = await ok<{ elements: Element[] }>(['elements', '-s', s]);
        expect(JSON.stringify(read)).not.toContain(VALUE);
        await ok(['inspect', '-s', s, named(all, 'Password')]);
        await ok(['click', '-s', s, named(all, 'Sign in')]);
        await until('the bank to receive the login', () => f.logins.find((l) => l.site === 'bank'));
        expect(f.logins.filter((l) => l.site === 'bank')).toEqual([
          { site: 'bank', user: 'ada', password: VALUE },
        ]);
        await ok(['session', 'close', '-s', s]);
      },
      T,
    );

    it(
      'refuses the secret on a look-alike origin (another port) and in a cross-origin frame of the bank’s page, and an unknown name',
      async () => {
        const { sites: f } = e();
        const s = await session(f.lookalike);
        const look = await elements(s, (x) => x.some((el) => el.name === 'Password'));
        const refused = await failure(['fill', '-s', s, named(look, 'Password'), '--secret', 'bank']);
        expect(refused.code).toBe('SECRET_ORIGIN_MISMATCH');
        expect(refused.message).toContain(f.lookalike.replace('/login.html', ''));
        await ok(['click', '-s', s, named(look, 'Sign in')]);
        await until('the look-alike to receive the empty form', () =>
          f.logins.find((l) => l.site === 'lookalike'),
        );
        expect(f.logins.find((l) => l.site === 'lookalike')?.password).toBe('');

        await ok(['session', 'close', '-s', s]);

        const t = await session(f.framed);
        const framed = await elements(t, (x) =>
          x.some((el) => el.name === 'Password' && el.frame === f.frameOrigin),
        );
        const inFrame = await failure([
          'fill',
          '-s',
          t,
          named(framed, 'Password', f.frameOrigin),
          '--secret',
          'bank',
        ]);
        expect(inFrame.code).toBe('SECRET_ORIGIN_MISMATCH');
        expect(inFrame.message).toContain(f.frameOrigin);

        expect(
          (await failure(['fill', '-s', t, named(framed, 'Password', f.frameOrigin), '--secret', 'nope']))
            .code,
        ).toBe('SECRET_NOT_FOUND');
        expect((await failure(['fill', '-s', t, named(framed, 'Password', f.frameOrigin)])).code).toBe(
          'USAGE',
        );
        await ok(['session', 'close', '-s', t]);
      },
      T,
    );

    it(
      'fills it through MCP by name: the reply and the next snapshot never show it, a look-alike is refused',
      async () => {
        const { env: x, sites: f } = e();
        const mcp = await McpClient.start({ ...x.cli.environment(), BPROXY_SESSION: '' }, [
          '--browser',
          x.browser,
        ]);
        try {
          const reply = async (name: string, args: Record<string, unknown>) => {
            const r = await mcp.call(name, args);
            outputs.push(r.text);
            return r;
          };
          expect((await reply('tab_open', { url: f.login })).isError).toBe(false);
          const snap = await until('the form in the snapshot', async () => {
            const r = await reply('snapshot', {});
            return /textbox "Password" \[el\d+\]/.test(r.text) ? r.text : undefined;
          });
          const handle = /textbox "Password" \[(el\d+)\]/.exec(snap)?.[1] ?? '';
          const filled = await reply('fill', { target: handle, secret: 'bank' });
          expect(filled.isError, filled.text).toBe(false);
          const after = await reply('snapshot', {});
          expect(after.text).toContain('Password');
          expect(after.text).not.toContain(VALUE);
          const both = await reply('fill', { target: handle, secret: 'bank', value: 'x' });
          expect(both.isError).toBe(true);

          expect((await reply('navigate', { url: f.lookalike })).isError).toBe(false);
          const look = await until('the look-alike form', async () => {
            const r = await reply('snapshot', {});
            return /textbox "Password" \[(el\d+)\]/.exec(r.text)?.[1];
          });
          const refused = await reply('fill', { target: look, secret: 'bank' });
          expect(refused.isError).toBe(true);
          expect(refused.text).toContain('SECRET_ORIGIN_MISMATCH');
        } finally {
          outputs.push(mcp.stderr());
          await mcp.close();
        }
      },
      T,
    );

    it(
      'leaves the value in no output of the run: CLI, MCP, nor any file under BPROXY_HOME (the debug log included)',
      () => {
        const { env: x } = e();
        expect(outputs.length).toBeGreaterThan(20);
        for (const text of outputs) expect(text).not.toContain(VALUE);
        // The browser's own profile is left out: Chromium keeps what was typed into a page's form (its
        // session restore) as it does for a person's typing; bproxy's outputs and files are all here.
        const files = filesUnder(x.cli.home).filter(
          (file) => !file.path.startsWith(join(x.cli.home, 'profiles')),
        );
        // The daemon logged at debug level: the payloads of every request and answer are in there.
        expect(
          files.some((file) => file.path.includes('logs') && file.text.includes('"action":"fill"')),
        ).toBe(true);
        for (const file of files) expect(file.text.includes(VALUE), file.path).toBe(false);
        // The store itself is sealed: its file holds the name and origin, not the value.
        expect(files.find((file) => file.path.endsWith('secrets.json'))?.text).toContain('"bank"');
      },
      T,
    );
  });
}
