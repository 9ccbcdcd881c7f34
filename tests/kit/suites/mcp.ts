/**
 * `bproxy mcp` as its clients see it, written once and run on every driver: real MCP clients (the SDK's
 * Client over stdio) spawn the built CLI against the driver's daemon. Covers the tool list, every action
 * family by handle, isolation between two concurrent clients, errors as isError results, and the server
 * exiting (and closing its session) when its client goes away. A case a driver cannot do is named in
 * its `cannot` with the reason, and shows as a skip saying so.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, McpClient, handleOf, processAlive, runCli } from '../mcp';
import type { FixtureServer } from '../pages';
import { until } from '../wait';
import { allowClasses } from '../allow-classes';

export interface McpEnv {
  /** The environment every MCP server and CLI call runs with (BPROXY_HOME, …). */
  env: NodeJS.ProcessEnv;
  /** BPROXY_HOME. */
  home: string;
  pages: FixtureServer;
  /** The browser's client name, as tab_open names it ("opened t1 (current) in NAME"). */
  browser: string;
  /** Arguments every `bproxy mcp` of this driver starts with (e.g. --browser NAME). */
  args: string[];
}

/** The cases of the suite, by the name a driver uses to say it cannot do one. */
export type McpCase =
  | 'tool list'
  | 'read before a tab'
  | 'action families'
  | 'stale handles'
  | 'capped reads'
  | 'snapshot diff'
  | 'annotated screenshot'
  | 'dialogs'
  | 'human required'
  | 'own tabs'
  | 'opened tabs'
  | 'bad arguments'
  | 'local URLs'
  | 'two clients'
  | 'first navigate'
  | 'client gone'
  | 'stdin closed';

export interface McpDriverUnderTest {
  /** Shown in the describe title. */
  label: string;
  /** Starts the daemon and the browser once; every later call returns the same environment. */
  start(): Promise<McpEnv>;
  /** Cases this driver cannot do, each with the reason (the case is skipped and says why). */
  cannot?: Partial<Record<McpCase, string>>;
}

interface Status {
  sessions: { session: string; label?: string; tabs: string[] }[];
}

const T = 90_000;

export function defineMcpSuite(driver: McpDriverUnderTest): void {
  describe(`bproxy mcp over stdio with ${driver.label}`, () => {
    let started: McpEnv | undefined;
    let client: McpClient | undefined;
    const e = (): McpEnv => {
      if (started === undefined) throw new Error(`${driver.label} did not start`);
      return started;
    };
    const a = (): McpClient => {
      if (client === undefined) throw new Error('the MCP client did not start');
      return client;
    };
    const url = (page: string): string => e().pages.url(page);
    const mcp = (name: string, args: string[] = ['--pacing', 'fast']): Promise<McpClient> =>
      McpClient.start(e().env, [...e().args, ...args], name);
    const sessionsLabelled = async (label: string): Promise<Status['sessions']> => {
      const status = await runCli(e().env, ['debug', 'status']);
      return (JSON.parse(status.stdout) as Status).sessions.filter((s) => s.label === label);
    };
    /** A case of the suite, or a skip naming why this driver cannot do it. */
    const test = (name: McpCase, title: string, body: () => Promise<void>): void => {
      const reason = driver.cannot?.[name];
      if (reason === undefined) it(title, body, T);
      else it.skip(`${title} — not on ${driver.label}: ${reason}`, body);
    };

    beforeAll(async () => {
      started = await driver.start();
      // The form's "Send" and the checkout's "Pay now" are pressed: a person allowed both (approvals).
      allowClasses(started.home, ['send', 'submit']);
      client = await mcp('agent-a');
    }, T);

    test(
      'tool list',
      'lists a small tool list derived from the protocol, without session arguments',
      async () => {
        const { tools } = await a().client.listTools();
        const names = tools.map((t) => t.name);
        for (const name of [
          'tab_open',
          'navigate',
          'snapshot',
          'click',
          'fill',
          'screenshot',
          'dialog',
          'wait',
        ])
          expect(names).toContain(name);
        expect(Buffer.byteLength(JSON.stringify(tools))).toBeLessThan(16_000);
        for (const tool of tools) {
          expect(tool.description?.length ?? 0).toBeLessThanOrEqual(80);
          expect(tool.inputSchema.type).toBe('object');
          expect(Object.keys(tool.inputSchema.properties ?? {})).not.toContain('session');
        }
        const click = tools.find((t) => t.name === 'click');
        expect(click?.inputSchema.required).toEqual(['target']);
      },
    );

    test(
      'read before a tab',
      'answers a read before any tab with TAB_NOT_FOUND and says to navigate',
      async () => {
        const reply = await a().call('snapshot');
        expect(reply.isError).toBe(true);
        expect(reply.text).toMatch(/^TAB_NOT_FOUND: .*\nWhat to do: Call navigate with a url/);
      },
    );

    test('action families', 'runs the whole action suite by handle, with the daemon running', async () => {
      const browser = e().browser.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      expect(await a().ok('tab_open', { url: url('ext-form.html') })).toMatch(
        new RegExp(`^opened t1 \\(current\\) in ${browser}: .*ext-form\\.html "Extension form"$`),
      );
      expect(JSON.parse((await runCli(e().env, ['service', 'status'])).stdout)).toMatchObject({
        running: true,
      });

      const snap = await a().ok('snapshot');
      expect(snap.split('\n')[0]).toContain('"Extension form"');
      const name = handleOf(snap, /textbox "Name"/);
      const notes = handleOf(snap, /textbox "Notes"/);
      const size = handleOf(snap, /combobox "Size"/);
      const send = handleOf(snap, /button "Send"/);

      expect(await a().ok('fill', { target: name, value: 'Ada' })).toBe(`filled ${name}`);
      expect(await a().ok('type', { text: 'fast', target: notes })).toBe(`typed into ${notes}`);
      expect(await a().ok('press', { key: 'Tab' })).toBe('pressed Tab');
      expect(await a().ok('select', { target: size, values: ['l'] })).toBe(`selected "l" in ${size}`);
      expect(await a().ok('hover', { target: { selector: '#hover-target' } })).toBe(
        'hovered "#hover-target"',
      );
      expect(await a().ok('text', { target: { selector: '#hovered' } })).toBe('hovered');
      expect(await a().ok('scroll', { to: 'bottom' })).toMatch(/^scrolled to x=0 y=\d+ \(at bottom\)$/);

      const inspected = JSON.parse(await a().ok('inspect', { target: send })) as { tag: string };
      expect(inspected.tag).toBe('button');
      const elements = await a().ok('elements', { role: 'textbox' });
      expect(elements).toMatch(/^el\d+ textbox "Name" type=text value="Ada"$/m);
      expect(await a().ok('links')).toMatch(/^ln\d+ "Next page" → .*ext-done\.html\?via=link$/m);

      const shot = await a().call('screenshot');
      expect(shot.isError).toBe(false);
      expect(shot.images[0]?.mimeType).toBe('image/png');
      expect(
        Buffer.from(shot.images[0]?.data ?? '', 'base64')
          .subarray(1, 4)
          .toString(),
      ).toBe('PNG');

      // Read again (the same button keeps its handle), then submit. The form loads another
      // page: the click's one-line reply says so, and the page is not dumped.
      const fresh = handleOf(await a().ok('snapshot'), /button "Send"/);
      const clicked = await a().ok('click', { target: fresh });
      expect(clicked).toMatch(
        new RegExp(
          `^clicked ${fresh} → navigated to .*ext-done\\.html\\?name=Ada&notes=fast&size=l "Extension done"; old handles are stale$`,
        ),
      );
      // The page's line (its title) is page text: in the fence, on a line of its own.
      expect(await a().ok('wait', { text: 'done' })).toMatch(/^done after \d+ ms\nat .*ext-done\.html/);

      expect(await a().ok('back')).toMatch(/ext-form\.html "Extension form"$/);
      expect(await a().ok('forward')).toMatch(/ext-done\.html\?name=Ada/);
      expect(await a().ok('reload')).toMatch(/"Extension done"$/);
      expect(await a().ok('navigate', { url: url('ext-form.html') })).toMatch(/"Extension form"$/);
    });

    test('stale handles', 'reports stale handles as errors that say to read the page again', async () => {
      const snap = await a().ok('snapshot');
      const send = handleOf(snap, /button "Send"/);
      await a().ok('navigate', { url: url('ext-done.html') });
      const reply = await a().call('click', { target: send });
      expect(reply.isError).toBe(true);
      expect(reply.text).toMatch(/^ELEMENT_HANDLE_(STALE|NOT_FOUND): /);
      expect(reply.text).toMatch(/What to do: .*call snapshot/);
    });

    test('capped reads', 'caps snapshots and long text with a continuation', async () => {
      await a().ok('navigate', { url: url('forms.html') });
      const first = await a().ok('snapshot', { maxChars: 300 });
      expect(first).toMatch(/For the next part repeat with offset=(\d+)/);
      const offset = Number(first.match(/offset=(\d+)/)?.[1]);
      const second = await a().ok('snapshot', { maxChars: 300, offset });
      expect(second).not.toBe(first);
      const text = await a().ok('text', { maxChars: 100 });
      expect(text).toMatch(/\[chars 0-\d+ of \d+; call text with offset=\d+ for more\]$/);
    });

    test(
      'snapshot diff',
      'answers snapshot diff:true and click diff:true with only the change, long text included',
      async () => {
        await a().ok('navigate', { url: url('diff-form.html') });
        const first = await a().ok('snapshot', { diff: true });
        expect(first.split('\n')[0]).toMatch(/"Checkout" \(whole: first snapshot here\)$/);
        const qty = handleOf(first, /textbox "Quantity"/);
        const more = await a().ok('click', { target: handleOf(first, /button "One more"/), diff: true });
        expect(more).toMatch(new RegExp(`\\n\\(changes\\)\\n~ textbox "Quantity" value="2" \\[${qty}\\]$`));
        const paid = await a().ok('click', { target: handleOf(first, /button "Pay now"/), diff: true });
        expect(paid.split('\n').slice(1)).toEqual([
          '(changes)',
          '+ text: Your payment could not be processed, please check the card number and try again.',
        ]);
        const same = await a().ok('snapshot', { diff: true });
        expect(same.split('\n').slice(1)).toEqual(['[No change since your last snapshot.]']);
        expect(same.split('\n')[0]).toMatch(/"Checkout" \(changes\)$/);
      },
    );

    test(
      'annotated screenshot',
      'answers screenshot annotate:true with the image and the snapshot handles it labelled',
      async () => {
        await a().ok('navigate', { url: url('annotate.html') });
        const snap = await a().ok('snapshot');
        const reply = await a().call('screenshot', { annotate: true });
        expect(reply.isError).toBe(false);
        expect(reply.images).toHaveLength(1);
        const red = handleOf(snap, /button "Red"/);
        const blue = handleOf(snap, /link "Blue"/);
        expect(reply.text).toMatch(new RegExp(`^labelled: ${red} "Red" @\\d+,\\d+; `));
        expect(reply.text).toContain(`; ${blue} "Blue" @`);
        expect(reply.text).not.toContain('"Far"');
      },
    );

    test(
      'dialogs',
      'tells about dialogs in the action reply and answers them with the dialog tool',
      async () => {
        await a().ok('navigate', { url: url('dialog.html') });
        const clicked = await a().ok('click', { target: { selector: '#confirm' } });
        expect(clicked).toContain('confirm dialog open: "Are you sure?" (answer with dialog)');
        expect(await a().ok('dialog', { accept: true })).toBe('accepted confirm "Are you sure?"');
        expect(await a().ok('text', { target: { selector: '#out' } })).toBe('confirm: true');
        const none = await a().call('dialog', { accept: false });
        expect(none.isError).toBe(true);
        expect(none.text).toMatch(/^NO_DIALOG: /);
      },
    );

    test(
      'human required',
      'returns a paused session as HUMAN_REQUIRED with the reason and what the human must do',
      async () => {
        const reply = await a().call('navigate', { url: url('ext-captcha.html') });
        expect(reply.isError).toBe(true);
        expect(reply.text).toMatch(/^HUMAN_REQUIRED: /);
        expect(reply.text).toMatch(/What to do: Tell the user .* then call session_resume/);
        expect((await a().call('snapshot')).text).toMatch(/^HUMAN_REQUIRED: /);
        expect(await a().ok('session_resume')).toMatch(/^resumed/);
        expect(await a().ok('navigate', { url: url('ext-done.html') })).toMatch(/"Extension done"$/);
      },
    );

    test('own tabs', 'manages its own tabs', async () => {
      expect(await a().ok('tab_open', { url: url('list.html') })).toMatch(/^opened t2 \(current\)/);
      const listed = await a().ok('tab_list');
      expect(listed.split('\n')).toHaveLength(2);
      expect(listed).toMatch(/^t2 \(current\) /m);
      expect(await a().ok('tab_select', { tab: 't1' })).toBe('current tab: t1');
      expect(await a().ok('tab_close', { tab: 't2' })).toBe('closed t2');
      expect(await a().ok('tab_list')).toMatch(/^t1 \(current\) [^\n]*$/);
    });

    test(
      'opened tabs',
      'names in its reply the tab a click opened, and says when that tab closed itself',
      async () => {
        await a().ok('navigate', { url: url('trusted.html') });
        const opened = await a().ok('click', {
          target: handleOf(await a().ok('snapshot'), /button "Open popup"/),
        });
        const tab = /; opened (t\d+) \S*popup\.html \(tab_select (t\d+) to act in it\)$/.exec(opened);
        expect(tab?.[1]).toBeDefined();
        expect(tab?.[2]).toBe(tab?.[1]);
        const popup = String(tab?.[1]);
        expect(await a().ok('tab_select', { tab: popup })).toBe(`current tab: ${popup}`);
        const finished = await a().ok('click', {
          target: handleOf(await a().ok('snapshot'), /button "Finish sign-in"/),
        });
        await until('the popup to leave the session', async () =>
          (await sessionsLabelled('mcp agent-a')).every((s) => !s.tabs.includes(popup)),
        );
        const next = await a().ok('text', { target: { selector: '#status' } });
        expect(`${finished}\n${next}`).toContain(
          `Note: ${popup} was closed in the browser; the session is back on t1, the tab that opened it`,
        );
      },
    );

    test('bad arguments', 'returns bad arguments and unknown tools as isError results', async () => {
      const bad = await a().call('click', { target: 'button' });
      expect(bad).toMatchObject({ isError: true });
      expect(bad.text).toMatch(/^BAD_REQUEST: target: expected an element handle like el3/);
      const extra = await a().call('navigate', { url: 'https://example.org', session: 'abcdef' });
      expect(extra.text).toMatch(/^BAD_REQUEST: arguments: unknown field\(s\) "session"/);
      const hidden = await a().call('tab_open', { url: 'about:blank', browser: 'x' });
      expect(hidden.text).toBe(
        'BAD_REQUEST: tab_open does not take browser\nWhat to do: Remove it; the server sets it itself',
      );
      const missing = await a().call('tab_select', {});
      expect(missing.text).toMatch(/^BAD_REQUEST: tab_select needs tab/);
      const unknown = await a().call('teleport');
      expect(unknown).toMatchObject({
        isError: true,
        text: 'UNKNOWN_ACTION: no tool named "teleport"\nWhat to do: Call tools/list for the tools of this server',
      });
      expect((await a().call('click', { target: 'el999999' })).text).toMatch(/^ELEMENT_HANDLE_NOT_FOUND: /);
    });

    test(
      'local URLs',
      'refuses a file:, data: or view-source: URL on navigate and tab_open with URL_NOT_ALLOWED, reading nothing',
      async () => {
        await a().ok('navigate', { url: url('counter.html') });
        const token = readFileSync(join(e().home, 'token'), 'utf8').trim();
        for (const [tool, target] of [
          ['navigate', `file://${join(e().home, 'token')}`],
          ['tab_open', 'file:///etc/hostname'],
          ['navigate', 'data:text/html,<p>x</p>'],
          ['navigate', `view-source:${url('counter.html')}`],
        ] as const) {
          const reply = await a().call(tool, { url: target });
          expect(reply.isError, `${tool} ${target}`).toBe(true);
          expect(reply.text, `${tool} ${target}`).toMatch(
            /^URL_NOT_ALLOWED: .*\nWhat to do: Open an http: or https: page/s,
          );
        }
        const text = await a().ok('text');
        expect(text).toContain('Count: 0');
        expect(text).not.toContain(token);
      },
    );

    test(
      'two clients',
      'isolates two concurrent clients: each sees only its own tabs and handles',
      async () => {
        const b = await mcp('agent-b');
        try {
          await Promise.all([
            a().ok('navigate', { url: url('counter.html') }),
            b.ok('tab_open', { url: url('counter.html') }),
          ]);
          expect(await b.ok('tab_list')).toMatch(/^t1 \(current\) [^\n]*counter\.html[^\n]*$/);
          expect((await a().ok('tab_list')).split('\n')).toHaveLength(1);

          // B mints handles past anything A has seen; A cannot use them.
          let bSnap = '';
          for (let i = 0; i < 3; i++) bSnap = await b.ok('snapshot');
          const bButton = handleOf(bSnap, /button "Increment"/);
          const foreign = await a().call('click', { target: bButton });
          expect(foreign.isError).toBe(true);
          expect(foreign.text).toMatch(/^ELEMENT_HANDLE_NOT_FOUND: /);

          // Clicks at the same time land in each client's own page.
          const aButton = handleOf(await a().ok('snapshot'), /button "Increment"/);
          await Promise.all([
            (async () => {
              for (let i = 0; i < 3; i++) await a().ok('click', { target: aButton });
            })(),
            (async () => {
              for (let i = 0; i < 5; i++) await b.ok('click', { target: bButton });
            })(),
          ]);
          expect(await a().ok('text', { target: { selector: '#count' } })).toBe('3');
          expect(await b.ok('text', { target: { selector: '#count' } })).toBe('5');
          expect(await sessionsLabelled('mcp agent-a')).toHaveLength(1);
          expect(await sessionsLabelled('mcp agent-b')).toHaveLength(1);
        } finally {
          await b.close();
        }
      },
    );

    test(
      'first navigate',
      'opens a tab on a first navigate, and says in its first reply that it paces like a person',
      async () => {
        const h = await mcp('agent-h', []);
        try {
          const first = await h.call('navigate', { url: url('counter.html') });
          expect(first.isError).toBe(false);
          const [answer, notice] = first.text.split('\n');
          expect(answer).toMatch(/^opened t1 \(current\); at .*counter\.html/);
          expect(notice).toContain('paces actions like a person');
          expect(notice).toContain('bproxy mcp --pacing fast');
          const second = await h.ok('tab_list');
          expect(second).toMatch(/^t1 \(current\) [^\n]*counter\.html[^\n]*$/);
          const [session] = await sessionsLabelled('mcp agent-h');
          expect(session).toMatchObject({ tabs: ['t1'] });
        } finally {
          await h.close();
        }
      },
    );

    test('client gone', 'exits and closes its session with its tabs when the client goes away', async () => {
      const c = await mcp('agent-c');
      await c.ok('tab_open', { url: url('counter.html') });
      expect(await sessionsLabelled('mcp agent-c')).toHaveLength(1);
      const pid = c.pid;
      await c.close();
      expect(pid).not.toBeNull();
      await until('the server process to exit', () => pid !== null && !processAlive(pid));
      expect(await sessionsLabelled('mcp agent-c')).toEqual([]);
    });

    test('stdin closed', 'exits with code 0 when its stdin closes', async () => {
      const child = spawn(process.execPath, [CLI, 'mcp', ...e().args], {
        env: e().env,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
      const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
      send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'tab_open', arguments: { url: url('list.html') } },
      });
      await until('the tab_open answer', () => out.includes('"id":2'), 30_000);
      expect(await sessionsLabelled('mcp raw')).toHaveLength(1);
      child.stdin.end();
      expect(await exited).toBe(0);
      expect(await sessionsLabelled('mcp raw')).toEqual([]);
    });

    afterAll(async () => {
      await client?.close();
    });
  });
}
