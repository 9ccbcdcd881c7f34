// Removals of the threat model's lines on downloads written (files/downloads.ts in the daemon, the CDP
// driver's staging): names cleaned and never overwriting, nothing kept of a stopped download, the cap
// and the refused types enforced.

const UNIT = 'packages/daemon/test/files/downloads.test.ts › downloads filed by the daemon';
const CDP = ['tests/e2e/downloads-cdp.test.ts'];

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
        find: "        if (msg.state !== 'started') this.removeStaged(msg.guid);",
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
];
