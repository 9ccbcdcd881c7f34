// Removals of the threat model's lines on downloads written (files/downloads.ts in the daemon, the CDP
// driver's staging): names cleaned and never overwriting, nothing kept of a stopped download, the cap
// and the refused types enforced.

const UNIT = 'packages/daemon/test/files/downloads.test.ts › downloads filed by the daemon';
const CDP = ['tests/e2e/downloads-cdp.test.ts'];
const EXT = ['tests/e2e/downloads-extension.test.ts'];
const EXT_UNIT =
  "packages/daemon/test/files/downloads.test.ts › downloads from the user's Chrome (the extension)";
const CAP_TYPE =
  'tests/kit/suites/downloads.ts › stops a download over the cap and an executable, each with its code, and keeps nothing of them';

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  {
    id: 'downloads-name-cleaned',
    protects: "a download's suggested name loses its path parts and leading dots before it is filed",
    edits: [
      {
        file: 'packages/protocol/src/download-rules.ts',
        find: "  const last = suggested.split(/[/\\\\]/).pop() ?? '';",
        replace: '  const last = suggested;',
      },
    ],
    kills: [`${UNIT} › cleans the suggested name: no path parts, no leading dots, never empty`],
  },
  {
    id: 'downloads-no-overwrite',
    protects: 'a download never overwrites a file nor writes through a link: its name is created O_EXCL',
    edits: [
      {
        file: 'packages/daemon/src/files/downloads.ts',
        find: 'constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,',
        replace: 'constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC,',
      },
    ],
    kills: [
      `${UNIT} › files a completed download 0600 in the session folder, never overwriting one of the same name`,
      `${UNIT} › never writes through a link planted at the name: the download takes the next name`,
    ],
  },
  {
    id: 'downloads-no-overwrite-cdp',
    protects: 'a second download of the same name through the launched browser does not overwrite the first',
    build: true,
    run: CDP,
    edits: [
      {
        file: 'packages/daemon/src/files/downloads.ts',
        find: 'constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,',
        replace: 'constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC,',
      },
    ],
    kills: [
      "tests/kit/suites/downloads.ts › files a download in the session's folder, 0600, byte for byte, named by the action or wait --download and listed; the same name twice does not overwrite",
    ],
  },
  {
    id: 'downloads-nothing-kept',
    protects: 'a download stopped or cancelled leaves no file in the session folder',
    edits: [
      {
        file: 'packages/daemon/src/files/downloads.ts',
        find: "    if (entry.state !== 'completed' && entry.reserved) rmSync(entry.file, { force: true });",
        replace: '',
      },
    ],
    kills: [
      `${UNIT} › keeps nothing of a download over the cap, of a refused type, cancelled, or of a tab no session holds`,
    ],
  },
  {
    id: 'downloads-unattributed-removed',
    protects: 'a download of a tab no session holds is removed from the staging folder',
    edits: [
      {
        file: 'packages/daemon/src/files/downloads.ts',
        find: "        if (msg.state !== 'started') this.removeStaged(client, msg);",
        replace: '',
      },
    ],
    kills: [
      `${UNIT} › keeps nothing of a download over the cap, of a refused type, cancelled, or of a tab no session holds`,
    ],
  },
  {
    id: 'downloads-stopped-reported-at-end',
    protects:
      'a stopped download is reported (and its staged file removed) only when the browser says it ended, not at the cancel',
    edits: [
      {
        file: 'packages/cdp/src/driver/downloads.ts',
        find: "    if (event.state === 'inProgress') return;",
        replace: "    if (event.state === 'inProgress' && download.stopped === undefined) return;",
      },
    ],
    kills: [
      "packages/cdp/test/driver/downloads.test.ts › the launched browser's downloads › reports a download of a refused type only once the browser says it ended, even when it completed before the cancel landed",
      "packages/cdp/test/driver/downloads.test.ts › the launched browser's downloads › reports a download over the cap as too large once the browser says it was cancelled, with the bytes it had when stopped",
    ],
  },
  {
    id: 'downloads-cap-cdp',
    protects: 'the launched browser stops a download over the cap',
    build: true,
    run: CDP,
    edits: [
      {
        file: 'packages/cdp/src/driver/downloads.ts',
        find: '    const over = event.receivedBytes > this.settings.maxBytes || event.totalBytes > this.settings.maxBytes;',
        replace: '    const over = false;',
      },
    ],
    kills: [
      'tests/kit/suites/downloads.ts › stops a download over the cap and an executable, each with its code, and keeps nothing of them',
    ],
  },
  {
    id: 'downloads-type-cdp',
    protects: 'the launched browser stops a download of a refused type',
    build: true,
    run: CDP,
    edits: [
      {
        file: 'packages/cdp/src/driver/downloads.ts',
        find: '    if (isRefusedDownloadType(download.name)) {',
        replace: '    if (isRefusedDownloadType(download.name) && false) {',
      },
    ],
    kills: [
      'tests/kit/suites/downloads.ts › stops a download over the cap and an executable, each with its code, and keeps nothing of them',
    ],
  },
  {
    id: 'downloads-frame-cdp',
    protects: "a download a tab's cross-origin frame starts is the tab's (not cancelled as nobody's)",
    build: true,
    run: CDP,
    edits: [
      {
        file: 'packages/cdp/src/driver/connected-browser.ts',
        find: '[...this.tabs.values()].find((t) => t.mainFrameId === frameId || t.frames.has(frameId))',
        replace: '[...this.tabs.values()].find((t) => t.mainFrameId === frameId)',
      },
    ],
    kills: [
      "tests/kit/suites/downloads.ts › from a cross-origin frame › files a download a cross-origin frame of the tab starts (the frame from another port) in the session's folder",
      "tests/kit/suites/downloads.ts › from a cross-origin frame › files a download an out-of-process frame of the tab starts (another site, 127.0.0.2) in the session's folder",
    ],
  },
  {
    id: 'downloads-ext-oopif',
    protects:
      "in the user's Chrome, a download an out-of-process frame (another site) of a driven tab starts is filed for the session, not left where the user's go",
    build: true,
    run: EXT,
    edits: [
      {
        file: 'packages/extension/src/background/driver/driver.ts',
        find: '    await frameSessions.attachFrames(tabId);',
        replace: '',
      },
    ],
    kills: [
      "tests/kit/suites/downloads.ts › from a cross-origin frame › files a download an out-of-process frame of the tab starts (another site, 127.0.0.2) in the session's folder",
    ],
  },
  {
    id: 'downloads-ext-oopif-nested',
    protects:
      "in the user's Chrome, a download a frame of another site inside such a frame starts is filed for the session too (each child session attaches its own frames)",
    build: true,
    run: EXT,
    edits: [
      {
        file: 'packages/extension/src/background/driver/frame-sessions.ts',
        find: "      await this.chrome.debugger.sendCommand(target, 'Target.setAutoAttach', AUTO_ATTACH);",
        replace: '',
      },
    ],
    kills: [
      "tests/kit/suites/downloads.ts › from a cross-origin frame › files a download an out-of-process frame in an out-of-process frame starts (127.0.0.3 in 127.0.0.2) in the session's folder",
    ],
  },
  {
    id: 'downloads-ext-oopif-note',
    protects:
      "in a Chrome without child sessions for extensions, a wait --download that saw nothing says a frame of another site's download went to the user",
    edits: [
      {
        file: 'packages/daemon/src/actions/download-steps.ts',
        find: 'ms${unseenFrameDownloadsNote(sc.client)}`',
        replace: 'ms`',
      },
    ],
    kills: [
      "packages/daemon/test/files/frame-downloads-note.test.ts › a frame's download the user's Chrome cannot show bproxy › says in the wait --download timeout that an older Chrome leaves a download from a frame of another site to the user",
    ],
  },
  {
    id: 'downloads-ext-user-untouched',
    protects:
      "in the user's Chrome, a driven tab's announcement is used by one download only: a user's download of the same URL stays the user's",
    build: true,
    run: EXT,
    edits: [
      {
        file: 'packages/extension/src/background/driver/downloads.ts',
        find: '    this.announced.splice(index, 1);',
        replace: '',
      },
    ],
    kills: [
      "tests/kit/suites/downloads.ts › leaves the user's own download in a tab no session holds where the user's go — the same file an agent downloaded a moment before: untouched, on Chrome's list, nothing in a session's folder",
    ],
  },
  {
    id: 'downloads-ext-cap',
    protects: "in the user's Chrome, the extension stops a download over the daemon's cap",
    build: true,
    run: EXT,
    edits: [
      {
        file: 'packages/extension/src/background/driver/downloads.ts',
        find: '    this.maxBytes = maxBytes ?? DEFAULT_DOWNLOAD_MAX_BYTES;',
        replace: '    this.maxBytes = DEFAULT_DOWNLOAD_MAX_BYTES;',
      },
    ],
    kills: [CAP_TYPE],
  },
  {
    id: 'downloads-ext-type',
    protects: "in the user's Chrome, the extension stops a download of a refused type",
    build: true,
    run: EXT,
    edits: [
      {
        file: 'packages/extension/src/background/driver/downloads.ts',
        find: '    if (isRefusedDownloadType(ours.name)) {',
        replace: '    if (isRefusedDownloadType(ours.name) && false) {',
      },
    ],
    kills: [CAP_TYPE],
  },
  {
    id: 'downloads-ext-path-shape',
    protects: "the daemon takes an extension's download only from bproxy-downloads/<its guid>/<name>",
    edits: [
      {
        file: 'packages/daemon/src/files/downloads.ts',
        find: '  if (basename(dir) !== guid || basename(dirname(dir)) !== EXTENSION_DOWNLOAD_FOLDER) return null;',
        replace: '',
      },
    ],
    kills: [
      `${EXT_UNIT} › takes nothing from a path of any other shape: another folder, another guid, a climb out with .., or a linked folder`,
    ],
  },
  {
    id: 'downloads-ext-path-links',
    protects: "the daemon takes an extension's download only through real folders, never a link",
    edits: [
      {
        file: 'packages/daemon/src/files/downloads.ts',
        find: '    if (!lstatSync(dir).isDirectory() || !lstatSync(dirname(dir)).isDirectory()) return null;',
        replace: '',
      },
    ],
    kills: [
      `${EXT_UNIT} › takes nothing from a path of any other shape: another folder, another guid, a climb out with .., or a linked folder`,
    ],
  },
  {
    id: 'downloads-approval-gate',
    protects:
      'a download is decided by the "download" approval class as it starts: asked or denied, nothing is kept',
    edits: [
      {
        file: 'packages/daemon/src/files/downloads.ts',
        find: "    const gated = msg.state === 'type_refused' ? null : (this.gate?.(session, tab, client, msg.url) ?? null);",
        replace: '    const gated = null;',
      },
    ],
    kills: [
      'packages/daemon/test/approvals/download-gate.test.ts › the download approval class › keeps nothing of a download while the class asks, files the one started again after Allow once, and asks again after',
    ],
  },
  {
    id: 'downloads-approval-gate-e2e',
    protects: 'through the real CLI and both drivers, a download the "download" class asks for is not kept',
    build: true,
    run: [...CDP, ...EXT],
    edits: [
      {
        file: 'packages/daemon/src/files/downloads.ts',
        find: "    const gated = msg.state === 'type_refused' ? null : (this.gate?.(session, tab, client, msg.url) ?? null);",
        replace: '    const gated = null;',
      },
    ],
    kills: [
      'tests/kit/suites/downloads.ts › keeps nothing of a download while the "download" approval class asks: APPROVAL_REQUIRED where a person can answer (the extension), else POLICY_DENIED',
    ],
  },
  {
    id: 'downloads-ext-erased',
    protects:
      "in the user's Chrome, an agent's download is taken off Chrome's download list; the user's stays",
    build: true,
    run: EXT,
    edits: [
      {
        file: 'packages/extension/src/background/driver/downloads.ts',
        find: '      ?.erase({ id: ours.id })',
        replace: '      ?.search({ id: ours.id })',
      },
    ],
    kills: [
      "tests/kit/suites/downloads.ts › leaves the user's own download in a tab no session holds where the user's go — the same file an agent downloaded a moment before: untouched, on Chrome's list, nothing in a session's folder",
    ],
  },
];
