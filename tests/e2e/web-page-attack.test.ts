/**
 * A web page on another localhost port tries to reach the daemon with fetch (simple and preflighted),
 * a form POST and a WebSocket. Real headless Chromium, the daemon started by the real CLI. Everything
 * must be refused and nothing executed.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeProfile } from '../kit/chromium';
import { launchChromium, type LaunchedChromium } from '../kit/chromium';

const root = join(__dirname, '..', '..');
const cli = join(root, 'packages', 'cli', 'bin', 'bproxy.mjs');
const home = mkdtempSync(join(tmpdir(), 'bproxy-e2e-attack-'));
const env = { ...process.env, BPROXY_HOME: home, BPROXY_PORT: '0' };
const bproxy = (...args: string[]) =>
  execFileSync(process.execPath, [cli, ...args], { env, encoding: 'utf8', timeout: 20_000 });

let port = 0;
let browser: LaunchedChromium;
let page: Server;
let pagePort = 0;

beforeAll(async () => {
  port = (JSON.parse(bproxy('service', 'start')) as { port: number }).port;
  page = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end('<!doctype html><title>attacker</title><body>hi</body>');
  });
  await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
  const address = page.address();
  pagePort = typeof address === 'object' && address ? address.port : 0;
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  page?.close();
  try {
    bproxy('service', 'stop');
  } finally {
    await removeProfile(home);
  }
});

describe('a web page on another localhost port', () => {
  it('cannot reach the daemon by fetch, form POST or WebSocket, and nothing runs', async () => {
    const tab = await browser.context.newPage();
    await tab.goto(`http://127.0.0.1:${pagePort}/`);
    const outcome = await tab.evaluate(async (daemonPort) => {
      const base = `http://127.0.0.1:${daemonPort}`;
      const body = JSON.stringify({
        id: 'evil1',
        action: 'session.create',
        params: {},
        deadline: Date.now() + 5000,
      });
      const results: Record<string, string> = {};
      // A CORS-simple request reaches the server (the response is opaque to the page).
      await fetch(`${base}/`, {
        method: 'POST',
        mode: 'no-cors',
        headers: { 'content-type': 'text/plain' },
        body,
      })
        .then((r) => (results.simple = `status ${r.status}`))
        .catch((e: Error) => (results.simple = `error ${e.message}`));
      // A JSON request needs a preflight, which the daemon does not grant.
      await fetch(`${base}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        .then((r) => (results.json = `status ${r.status}`))
        .catch((e: Error) => (results.json = `error ${e.message}`));
      await fetch(`${base}/pair/claim`, {
        method: 'POST',
        mode: 'no-cors',
        headers: { 'content-type': 'text/plain' },
        body: '{"code":"AAAA-AAAA"}',
      })
        .then((r) => (results.pair = `status ${r.status}`))
        .catch((e: Error) => (results.pair = `error ${e.message}`));
      results.ws = await new Promise<string>((resolve) => {
        const ws = new WebSocket(`ws://127.0.0.1:${daemonPort}/ws`, [
          'bproxy.v1',
          'auth.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
        ]);
        ws.onopen = () => resolve('open');
        ws.onerror = () => resolve('refused');
      });
      // A form POST navigates an iframe: the daemon's answer is what the frame would show.
      const frame = document.createElement('iframe');
      frame.name = 'sink';
      document.body.append(frame);
      const form = document.createElement('form');
      form.method = 'POST';
      form.action = `${base}/`;
      form.enctype = 'text/plain';
      form.target = 'sink';
      const input = document.createElement('input');
      input.name = body.slice(0, -1);
      input.value = '}';
      form.append(input);
      document.body.append(form);
      await new Promise<void>((resolve) => {
        frame.onload = () => resolve();
        form.submit();
      });
      return results;
    }, port);

    expect(outcome.simple).toBe('status 0'); // opaque: sent, refused by the gate, unreadable by the page
    expect(outcome.json).toMatch(/^error/);
    expect(outcome.pair).toBe('status 0');
    expect(outcome.ws).toBe('refused');

    // The gate refused each of them (not a later check): four rejections in the daemon log.
    const logDir = join(home, 'logs');
    const rejections = () =>
      readdirSync(logDir)
        .map((f) => readFileSync(join(logDir, f), 'utf8'))
        .join('')
        .split('\n')
        .filter((l) => l.includes('"event":"gate_rejected"'));
    // The log is written asynchronously: poll briefly for the lines.
    for (let i = 0; i < 100 && rejections().length < 4; i++) await new Promise((r) => setTimeout(r, 20));
    const rejected = rejections();
    expect(rejected.length).toBeGreaterThanOrEqual(4);
    expect(rejected.some((l) => l.includes('"path":"/ws"'))).toBe(true);
    expect(rejected.some((l) => l.includes('"path":"/pair/claim"'))).toBe(true);

    // Nothing ran: no session exists and no request was traced.
    const sessions = JSON.parse(bproxy('session', 'list')) as { sessions: unknown[] };
    expect(sessions.sessions).toEqual([]);
    const last = JSON.parse(bproxy('debug', 'last')) as { traces: { id: string }[] };
    expect(last.traces.map((t) => t.id)).not.toContain('evil1');
    await tab.close();
  });
});
