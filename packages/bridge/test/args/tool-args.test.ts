import { describe, expect, it } from 'vitest';
import { applyArgPolicy } from '../../src/args/arg-policy';
import { parseToolArgs, ToolArgsError } from '../../src/args/tool-args';

describe('the switches a tool starts the bridge with', () => {
  it('reads the transport, profile and headless mode chrome-devtools-mcp asks for', () => {
    const args = parseToolArgs([
      '--allow-pre-commit-input',
      '--disable-background-networking',
      '--enable-automation',
      '--headless=new',
      '--hide-scrollbars',
      '--remote-debugging-pipe',
      '--user-data-dir=/home/u/.cache/chrome-devtools-mcp/chrome-profile',
      '--screen-info={3840x2160}',
      '--hide-crash-restore-bubble',
      'about:blank',
    ]);
    expect(args).toEqual({
      pipe: true,
      port: undefined,
      userDataDir: '/home/u/.cache/chrome-devtools-mcp/chrome-profile',
      headless: true,
      rest: [
        '--allow-pre-commit-input',
        '--disable-background-networking',
        '--enable-automation',
        '--hide-scrollbars',
        '--screen-info={3840x2160}',
        '--hide-crash-restore-bubble',
        'about:blank',
      ],
    });
    expect(applyArgPolicy(args.rest, 'user')).toEqual({
      forwarded: [
        '--hide-scrollbars',
        '--screen-info={3840x2160}',
        '--hide-crash-restore-bubble',
        'about:blank',
      ],
      dropped: ['--allow-pre-commit-input', '--disable-background-networking', '--enable-automation'],
    });
  });

  const toolWishes = [
    '--disable-extensions',
    '--password-store=basic',
    '--use-mock-keychain',
    '--no-sandbox',
    '--disable-web-security',
    '--load-extension=/tmp/x',
    '--disable-features=Translate',
    '--enable-features=WebMCP',
    '--host-resolver-rules=MAP * 127.0.0.1',
    '--disable-popup-blocking',
    '--auto-open-devtools-for-tabs',
    '--enable-automation',
    '--disable-background-timer-throttling',
    '--window-size=800,600',
  ];

  it("drops every switch that would change the user's real browser", () => {
    const { forwarded, dropped } = applyArgPolicy(
      parseToolArgs([...toolWishes, '--remote-allow-origins=*']).rest,
      'user',
    );
    expect(forwarded).toEqual(['--window-size=800,600']);
    expect(dropped).toEqual([...toolWishes.slice(0, -1), '--remote-allow-origins=*']);
  });

  it("passes every switch Chrome would take to the tool's own profile, but none that opens the browser's DevTools", () => {
    const { forwarded, dropped } = applyArgPolicy(
      parseToolArgs([
        ...toolWishes,
        '--remote-allow-origins=*',
        '--remote-debugging-io-pipes=3,4',
        '--remote-debugging-address=0.0.0.0',
        'about:blank',
      ]).rest,
      'tool',
    );
    expect(forwarded).toEqual([...toolWishes, 'about:blank']);
    expect(dropped).toEqual(['--remote-allow-origins=*', '--remote-debugging-io-pipes=3,4']);
  });

  it('reads a port (Playwright port mode, Puppeteer without a pipe) and never takes an address from the tool', () => {
    const args = parseToolArgs([
      '--remote-debugging-port=0',
      '--remote-debugging-address=0.0.0.0',
      '--headless',
    ]);
    expect(args).toMatchObject({ pipe: false, port: 0, headless: true, rest: [] });
    expect(parseToolArgs(['--remote-debugging-pipe', '--remote-debugging-port=9333'])).toMatchObject({
      pipe: true,
      port: 9333,
    });
  });

  it('takes --headless=false as headed', () => {
    expect(parseToolArgs(['--headless=false']).headless).toBe(false);
    expect(parseToolArgs([]).headless).toBe(false);
  });

  it.each([
    ['--remote-debugging-port=x'],
    ['--remote-debugging-port=70000'],
    ['--remote-debugging-port'],
    ['--user-data-dir='],
  ])('refuses %s with a message naming the switch', (arg) => {
    expect(() => parseToolArgs([arg])).toThrow(ToolArgsError);
    expect(() => parseToolArgs([arg])).toThrow(/--(remote-debugging-port|user-data-dir)/);
  });
});
