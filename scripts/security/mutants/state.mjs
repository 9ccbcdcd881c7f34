// Removals of the threat model's lines on logins, cookies and state files: the user's Chrome keeps its
// cookies unless the user allows reading them, state files stay in the allowed folders and private,
// named profiles are private and never shared with a running browser, emulation in the user's Chrome
// stays inside the tab.

const DOORS = 'packages/daemon/src/actions/state-doors.ts';
const FILES = 'packages/daemon/src/actions/state-files.ts';
const PROFILES = 'packages/daemon/src/lifecycle/profiles.ts';
const EXT = 'packages/extension/src/background/driver/state-actions.ts';
const DOORS_T =
  "packages/daemon/test/actions/state-doors.test.ts › the user's own Chrome: cookies are the user's";
const FILES_T = 'packages/daemon/test/actions/state-files.test.ts › state file paths';
const PROFILES_T = 'packages/daemon/test/lifecycle/profiles.test.ts › profiles of the launched browser';
const SUITE = 'tests/kit/suites/state.ts';
const EXTENSION = ['tests/e2e/state-extension.test.ts'];

const REFUSED_UNTIL_ALLOWED = `${DOORS_T} › refuses to read, export or clear the user's cookies until the user allows it, before the browser hears of it`;
const SAVE_WRITES = `${DOORS_T} › writes state save from what the driver answered, 0600 in BPROXY_HOME/state, and refuses a path out before asking the driver`;
const WRITES = `${FILES_T} › writes 0600 through a rename, never through a link planted after the check, and reads bounded`;

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  {
    id: 'state-user-cookies-door',
    protects: "the user's Chrome: reading, exporting or clearing cookies needs the user's permission",
    edits: [
      {
        file: DOORS,
        find: "  if (client.kind === 'extension' && NEEDS_PERMISSION.has(action) && !userAllowsCookies(home))",
        replace: '  if (NEEDS_PERMISSION.size < 0)',
      },
    ],
    build: true,
    run: EXTENSION,
    kills: [
      REFUSED_UNTIL_ALLOWED,
      `${SUITE} › refuses to read, export or clear the user's cookies until the user allows it, and writes no file`,
    ],
  },
  {
    id: 'state-file-checked',
    protects:
      "a state file is read by the daemon and checked as Playwright's format before a browser gets it",
    edits: [
      {
        file: DOORS,
        find: "    if (!state.success) return failed('STATE_FILE_INVALID', `${path}: ${formatIssues(state.error, json)}`);\n    return { forwarded: { state: state.data }, path };",
        replace:
          '    if (!state.success) return { forwarded: { state: json }, path };\n    return { forwarded: { state: state.data }, path };',
      },
    ],
    kills: [
      `${DOORS_T} › reads state load's file itself and forwards its content; a file that is not Playwright's format reaches no browser`,
    ],
  },
  {
    id: 'state-permission-file-checked',
    protects: 'the permission file counts only when it is the user’s and private',
    edits: [
      {
        file: DOORS,
        find: "import { readStateFile } from '@bproxy/client/lifecycle';",
        replace:
          "import { readFileSync } from 'node:fs';\nconst readStateFile = (path: string): string => readFileSync(path, 'utf8');",
      },
    ],
    kills: [REFUSED_UNTIL_ALLOWED],
  },
  {
    id: 'state-file-private',
    protects: 'state files are written 0600',
    edits: [
      { file: FILES, find: '    0o600,\n', replace: '    0o644,\n' },
      { file: FILES, find: 'fchmodSync(fd, 0o600)', replace: 'fchmodSync(fd, 0o644)' },
    ],
    kills: [WRITES, SAVE_WRITES],
  },
  {
    id: 'profile-private',
    protects: 'a named profile is a private folder of the user',
    edits: [
      {
        file: PROFILES,
        find: '  if (uid !== null && (stats.uid !== uid || (stats.mode & 0o077) !== 0))',
        replace: '  if (uid !== null && stats.uid !== uid)',
      },
    ],
    kills: [
      `${PROFILES_T} › keeps a profile in BPROXY_HOME/profiles/NAME, 0700, and refuses one open to others or a link`,
    ],
  },
  {
    id: 'profile-lock',
    protects: 'a profile a running browser holds is refused',
    edits: [
      {
        file: PROFILES,
        find: '  if (host !== hostname() || alive(pid))',
        replace: '  if (host !== hostname())',
      },
    ],
    kills: [
      `${PROFILES_T} › refuses a profile a live browser holds, and takes over the lock of one that is gone`,
    ],
  },
  {
    id: 'user-chrome-keeps-cookies',
    protects: "state load in the user's Chrome never overwrites a cookie or a localStorage key it has",
    build: true,
    run: EXTENSION,
    edits: [
      {
        file: EXT,
        find: '      return loadState(s, tabLocalStorage(ctx, tabIdOf(call), url), params.state, { keepExisting: true });',
        replace:
          '      return loadState(s, tabLocalStorage(ctx, tabIdOf(call), url), params.state, { keepExisting: false });',
      },
    ],
    kills: [
      `${SUITE} › a sign-in saved with state save comes back with state load, which never overwrites what the browser has`,
    ],
  },
  {
    id: 'user-chrome-emulation-in-tab',
    protects: "emulate in the user's Chrome applies only what stays inside the tab",
    build: true,
    run: EXTENSION,
    edits: [
      {
        file: EXT,
        find: '      return applyEmulation(s, params, { userChrome: true });',
        replace: '      return applyEmulation(s, params, { userChrome: false });',
      },
    ],
    kills: [
      `${SUITE} › emulates the viewport and color scheme in the tab only, names what it did not apply, and ends with the session`,
    ],
  },
];
