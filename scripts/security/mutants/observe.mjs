// Removals of the threat model's lines on the console and network reads: credential headers redacted
// unless the user revealed them, the log kept for driven tabs only and bounded. Its files are confined
// by the one checker of the allowed folders: their removals are in files.mjs (path-*).

const SUITE = 'tests/kit/suites/observe.ts';
const BOTH_DRIVERS = ['tests/e2e/observe-cdp.test.ts', 'tests/e2e/observe-extension.test.ts'];
const LOG = 'packages/driver/test/observe/tab-log.test.ts › a tab log';

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  {
    id: 'network-redaction',
    protects: 'credential headers are redacted in network get and HAR',
    build: true,
    run: BOTH_DRIVERS,
    edits: [
      {
        file: 'packages/driver/src/observe/redact.ts',
        find: '    if (!isSecretHeader(h.name)) return { ...h };',
        replace: '    if (!isSecretHeader(h.name) || h.name !== "") return { ...h };',
      },
    ],
    kills: [
      'packages/driver/test/observe/redact.test.ts › header redaction › replaces Authorization, Proxy-Authorization, Cookie, Set-Cookie and key or token headers, and names them',
      `${SUITE} › shows one request's headers with the credentials redacted, and its body inline or in the session's folder`,
      `${SUITE} › exports HAR 0600 into the session's folder, redacted, and refuses paths that leave it`,
    ],
  },
  {
    id: 'network-reveal-agent-param',
    protects: 'an agent cannot ask for the secrets',
    edits: [
      {
        file: 'packages/protocol/src/actions.ts',
        find: '    params: NetworkGetParams,',
        replace: '    params: NetworkGetForwarded,',
      },
    ],
    kills: [
      'packages/protocol/test/schemas/observe.test.ts › the network read params › take no revealSecrets from an agent: only the daemon adds it, from the user settings',
    ],
  },
  {
    id: 'network-settings-writable',
    protects: 'a network.json others could write is ignored',
    edits: [
      {
        file: 'packages/daemon/src/observe/network-settings.ts',
        find: "    if ((st.mode & 0o022) !== 0) return refuse(warn, 'group or others may write it');",
        replace: '',
      },
    ],
    kills: [
      'packages/daemon/test/observe/network-settings.test.ts › the network settings in BPROXY_HOME › reveals secrets only when the file says so and only the user could have written it',
    ],
  },
  {
    id: 'observe-driven-tabs-only',
    protects: 'only driven tabs are logged, and a closed tab is freed',
    edits: [
      {
        file: 'packages/extension/src/background/driver/observe-actions.ts',
        find: '    if (tabId !== undefined && tabs.has(tabId)) observer.feed(tabId, method, params);',
        replace: '    if (tabId !== undefined) observer.feed(tabId, method, params);',
      },
      {
        file: 'packages/driver/src/observe/observer.ts',
        find: '    this.logs.get(tabId)?.feed(method, params);',
        replace: '    this.log(tabId).feed(method, params);',
      },
    ],
    kills: [
      "packages/extension/test/background/driver/observe-actions.test.ts › the extension's console and network log › logs only the tabs it drives, enables the domains once attached, and frees a closed or released tab",
      "packages/driver/test/observe/observer.test.ts › the tab observer › logs only the tabs it was given, and frees a tab's log when the tab leaves",
    ],
  },
  {
    id: 'observe-bounded',
    protects: "a tab's log stays within its count and bytes",
    edits: [
      {
        file: 'packages/driver/src/observe/tab-log.ts',
        find: '      (this.items.length > this.bounds.entries || this.bytes > this.bounds.bytes)',
        replace: '      (this.items.length > this.bounds.entries || this.bytes > this.bounds.bytes) && false',
      },
    ],
    kills: [
      `${LOG} › keeps at most its count of console entries, the oldest going first, and says how many went`,
      `${LOG} › keeps its console within its bytes`,
      `${LOG} › keeps its network list within its bytes as headers arrive, forgetting the requests it lets go`,
    ],
  },
];
