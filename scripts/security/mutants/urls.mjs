// Removals of the threat model's "URLs an agent may open": the scheme policy, the daemon's and each
// driver's checks, file: for a launched browser only, host permissions that never reach file://, and
// our own panel page kept out of driven tabs.

const POLICY = 'packages/protocol/src/url-policy.ts';
const POLICY_TEST = 'packages/protocol/test/url-policy.test.ts › the URLs an agent may open';
const DAEMON_CHECK = 'packages/daemon/src/actions/url-check.ts';
const DAEMON_TEST = 'packages/daemon/test/actions/url-check.test.ts › URLs an agent may open';
const LAUNCHERS_TEST =
  'packages/daemon/test/lifecycle/browser-launchers.test.ts › file: URLs in a browser bproxy launches';
const EXT_CHECK = 'packages/extension/src/background/driver/errors.ts';
const CDP_CHECK = 'packages/cdp/src/driver/executor.ts';

/** The daemon's two looks: the screen before anything is chosen, and the check per browser. */
const DAEMON_EDITS = [
  {
    file: DAEMON_CHECK,
    find: "  return verdict.ok ? null : failed('URL_NOT_ALLOWED', verdict.reason);",
    replace: "  return verdict.ok || !verdict.ok ? null : failed('URL_NOT_ALLOWED', verdict.reason);",
  },
  {
    file: DAEMON_CHECK,
    find: '  if (!verdict.ok) return failed(\'URL_NOT_ALLOWED\', `${verdict.reason} (not browser "${client.name}")`);\n  return { url: verdict.url };',
    replace: '  return { url };',
  },
];
/** The extension's check before chrome.tabs. */
const EXT_EDIT = {
  file: EXT_CHECK,
  find: "  if (!verdict.ok) throw new DriverFailure(makeError('URL_NOT_ALLOWED', `${what}: ${verdict.reason}`));\n  return verdict.url;",
  replace: '  return url;',
};
/** The CDP driver's check before Page.navigate and Target.createTarget. */
const CDP_EDIT = {
  file: CDP_CHECK,
  find: "    if (!verdict.ok) fail('URL_NOT_ALLOWED', verdict.reason);",
  replace: '',
};

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  {
    id: 'url-policy-schemes',
    protects: 'only http:, https: and about:blank pass the URL policy',
    edits: [
      {
        file: POLICY,
        find: '  return { ok: false, reason: `${shown(scheme)} URLs are not allowed: ${ALLOWED_URLS}` };',
        replace: '  return { ok: true, url: parsed.href, file: false };',
      },
    ],
    kills: [`${POLICY_TEST} › refuses %s, with or without file: URLs allowed`],
  },
  {
    id: 'url-policy-file-opt-in',
    protects: 'file: URLs pass the policy only when allowed',
    edits: [
      {
        file: POLICY,
        find: '    if (options.allowFile === true) return { ok: true, url: parsed.href, file: true };',
        replace: '    return { ok: true, url: parsed.href, file: true };',
      },
    ],
    kills: [`${POLICY_TEST} › refuses file: URLs unless they are allowed, and says how they are`],
  },
  {
    id: 'url-daemon-check',
    protects: 'the daemon refuses every URL but http:, https: and about:blank for every driver',
    edits: DAEMON_EDITS,
    kills: [
      `${DAEMON_TEST} › refuses every URL but http:, https: and about:blank on tab.open and navigate, before anything reaches the browser`,
      `${DAEMON_TEST} › opens file: URLs only in a browser it launched with --allow-file-urls, never in the extension or an attached browser`,
      `${DAEMON_TEST} › refuses file: URLs in a launched browser by default`,
    ],
  },
  {
    id: 'url-daemon-file-launched-only',
    protects: 'file: URLs only in a browser the daemon launched with the option',
    edits: [
      {
        file: 'packages/daemon/src/browsers/launchers.ts',
        find: "    return launcher?.kind === 'launched' && launcher.allowFileUrls === true;",
        replace: '    return launcher?.allowFileUrls === true;',
      },
    ],
    kills: [
      `${DAEMON_TEST} › opens file: URLs only in a browser it launched with --allow-file-urls, never in the extension or an attached browser`,
    ],
  },
  {
    id: 'url-file-option-launched-only',
    protects: '--allow-file-urls reaches the launched browser only, never an attached one',
    edits: [
      {
        file: 'packages/daemon/src/lifecycle/browser-launchers.ts',
        find: "    launchers.push({ name: 'attached', kind: 'attached', start: (launch) => startDriver(options, launch) });",
        replace:
          "    launchers.push({ name: 'attached', kind: 'attached', start: (launch) => startDriver(options, launch), ...(choice.allowFileUrls ? { allowFileUrls: true } : {}) });",
      },
    ],
    kills: [
      `${LAUNCHERS_TEST} › are allowed by --allow-file-urls or BPROXY_ALLOW_FILE_URLS for the launched browser only`,
    ],
  },
  {
    id: 'url-file-option-needs-launch',
    protects: '--allow-file-urls with --browser none is refused at start',
    edits: [
      {
        file: 'packages/daemon/src/lifecycle/browser-launchers.ts',
        find: "  if (allowFileUrls && browser === 'none')",
        replace: "  if (allowFileUrls && browser === 'none' && !allowFileUrls)",
      },
    ],
    kills: [
      `${LAUNCHERS_TEST} › are refused with a sentence when the daemon launches no browser, or the variable is not a yes or no`,
    ],
  },
  {
    id: 'url-extension-check',
    protects: 'the extension checks the URL again before chrome.tabs',
    edits: [EXT_EDIT],
    kills: [
      'packages/extension/test/background/driver/url-check.test.ts › URLs the extension gives chrome.tabs › refuses %s on navigate and tab.open without asking chrome.tabs',
    ],
  },
  {
    id: 'url-cdp-check',
    protects: 'the CDP driver checks the URL again before its browser is asked',
    edits: [CDP_EDIT],
    kills: [
      'packages/cdp/test/url-check.browser.test.ts › a launched CDP driver, by default › refuses file:, data:, view-source: and other schemes on tab.open and navigate, opening no tab',
    ],
  },
  {
    id: 'url-panel-in-driven-tab',
    protects: 'our panel page in a tab an agent drives is disconnected',
    edits: [
      {
        file: 'packages/extension/src/background/host/panel-relay.ts',
        find: '      if (inDrivenTab(port.sender, (tabId) => this.opts.isDriven(tabId))) {',
        replace:
          '      if (inDrivenTab(port.sender, (tabId) => this.opts.isDriven(tabId)) && port.sender === null) {',
      },
    ],
    kills: [
      'packages/extension/test/background/host/panel-relay.test.ts › the panel relay › disconnects our own panel page loaded in a tab an agent drives, and keeps one in a tab of the user',
    ],
  },
  {
    id: 'url-host-permissions',
    protects: 'the page script never reaches file://: host permissions are http and https only',
    build: true,
    edits: [
      {
        file: 'packages/extension/manifest.json',
        find: '  "host_permissions": ["http://*/*", "https://*/*"],',
        replace: '  "host_permissions": ["<all_urls>"],',
      },
    ],
    kills: [
      'packages/extension/test/manifest.test.ts › manifest › reaches http and https pages only: no <all_urls>, no file://, no content scripts, nothing exposed',
      'tests/e2e/drivers-extension.test.ts › what only the extension driver has › cannot run a script in a file:// page even when one is open, while a web page takes it',
    ],
  },
  {
    id: 'url-checks-removed',
    protects: 'no surface and no driver opens file:, data:, view-source: or our own pages',
    build: true,
    edits: [...DAEMON_EDITS, EXT_EDIT, CDP_EDIT],
    run: [
      'tests/e2e/drivers-cdp.test.ts',
      'tests/e2e/drivers-extension.test.ts',
      'tests/e2e/mcp-cdp.test.ts',
      'tests/e2e/mcp-extension.test.ts',
    ],
    kills: [
      'tests/kit/suites/urls.ts › refuses file:, data:, view-source: and the extension’s own pages at once, and the browser reads nothing',
      'tests/e2e/drivers-cdp.test.ts › file: URLs, opted into with --allow-file-urls › opens local files in the browser the daemon launched, and still never in an attached one',
      'tests/kit/suites/mcp.ts › refuses a file:, data: or view-source: URL on navigate and tab_open with URL_NOT_ALLOWED, reading nothing',
      'packages/agent/test/real-browser.browser.test.ts › the agent in a shared tab of a real browser › refuses a model answer that opens the provider keys through file://, and the key never reaches the model',
    ],
  },
];
