// Removals of the threat model's section 3 for the files a client hands an agent by path: screenshots
// in BPROXY_HOME/screenshots, a private folder (0700, ours, in a home others cannot write to) of new
// files (0600, created exclusively, no symlink followed), and --out never written through a symlink.

const PRIVATE = 'packages/client/src/lifecycle/private-folder.ts';
const RUN_ACTION = 'packages/cli/src/run-action.ts';
const FOLDERS = 'packages/client/test/lifecycle/private-folder.test.ts › private folders in BPROXY_HOME';
const FILES = 'packages/client/test/lifecycle/private-folder.test.ts › new private files';
const SHOTS = 'packages/cli/test/cli-requests.test.ts › screenshot output';
const OTHER_USER =
  'packages/cli/test/cli-requests.test.ts › the screenshot folder another user prepared › is refused with UNSAFE_STATE_FILE when %s, and nothing is written into it';
const NATIVE =
  'packages/cli/test/cli-native.test.ts › the compiled binary against the full program › writes a screenshot without --out into BPROXY_HOME/screenshots (0600), and refuses that folder open to others';

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  {
    id: 'private-folder-checked',
    protects: 'the screenshot folder must be a folder of ours, closed to group and others',
    edits: [{ file: PRIVATE, find: '  assertPrivateFolder(dir, lstatSync(dir));', replace: '' }],
    kills: [
      `${FOLDERS} › refuses a folder %s`,
      `${FOLDERS} › refuses a symbolic link to a folder, and a file, where the folder should be`,
      OTHER_USER,
      NATIVE,
    ],
  },
  {
    id: 'private-folder-no-link',
    protects: 'a symbolic link where the screenshot folder should be is refused, not followed',
    edits: [
      {
        file: PRIVATE,
        find: '  assertPrivateFolder(dir, lstatSync(dir));',
        replace: '  assertPrivateFolder(dir, statSync(dir));',
      },
    ],
    kills: [
      `${FOLDERS} › refuses a symbolic link to a folder, and a file, where the folder should be`,
      OTHER_USER,
    ],
  },
  {
    id: 'private-folder-owner',
    protects: 'a screenshot folder owned by another user is refused',
    edits: [{ file: PRIVATE, find: '  if (stats.uid !== uid)', replace: '  if (false)' }],
    kills: [`${FOLDERS} › refuses a folder %s`, OTHER_USER],
  },
  {
    id: 'private-folder-closed',
    protects: 'a screenshot folder open to group or others is refused',
    edits: [{ file: PRIVATE, find: '  if ((stats.mode & 0o077) !== 0)', replace: '  if (false)' }],
    kills: [`${FOLDERS} › refuses a folder %s`, OTHER_USER, NATIVE],
  },
  {
    id: 'private-folder-home-closed',
    protects: 'a BPROXY_HOME others can write to is refused for private folders',
    edits: [
      {
        file: PRIVATE,
        find: '  if (uid !== null && (homeStats.mode & 0o022) !== 0)',
        replace: '  if (false)',
      },
    ],
    kills: [`${FOLDERS} › refuses a home others can write to, or owned by another user`],
  },
  {
    id: 'private-folder-mode',
    protects: 'the screenshot folder is created 0700',
    edits: [
      {
        file: PRIVATE,
        find: '    mkdirSync(dir, { mode: 0o700 });',
        replace: '    mkdirSync(dir, { mode: 0o755 });',
      },
    ],
    kills: [
      `${FOLDERS} › creates the home and the folder with mode 0700 whatever the umask`,
      `${SHOTS} › writes to BPROXY_HOME/screenshots (0700, the image 0600), not the working directory, without --out`,
      NATIVE,
    ],
  },
  {
    id: 'private-home-mode',
    protects: 'a missing BPROXY_HOME is created 0700 for a private folder',
    edits: [
      {
        file: PRIVATE,
        find: '  if (!checkStateHome(home)) mkdirSync(home, { recursive: true, mode: 0o700 });',
        replace: '  if (!checkStateHome(home)) mkdirSync(home, { recursive: true, mode: 0o755 });',
      },
    ],
    kills: [`${FOLDERS} › creates the home and the folder with mode 0700 whatever the umask`],
  },
  {
    id: 'private-file-exclusive',
    protects: 'a private file is created new: no symlink followed, nothing already there written into',
    edits: [
      {
        file: PRIVATE,
        find: '      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0),',
        replace: '      constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC,',
      },
    ],
    kills: [
      `${FILES} › never write through a symbolic link planted at the name, nor into a file already there`,
    ],
  },
  {
    id: 'private-file-mode',
    protects: 'a private file is 0600 whatever the umask',
    edits: [
      { file: PRIVATE, find: '      0o600,\n    );', replace: '      0o666,\n    );' },
      { file: PRIVATE, find: '    if (currentUid() !== null) fchmodSync(fd, 0o600);', replace: '' },
    ],
    kills: [
      `${FILES} › are created with mode 0600 whatever the umask`,
      `${SHOTS} › writes to BPROXY_HOME/screenshots (0700, the image 0600), not the working directory, without --out`,
      NATIVE,
    ],
  },
  {
    id: 'screenshot-in-home',
    protects: 'a screenshot without --out goes to BPROXY_HOME/screenshots, not a shared temporary folder',
    edits: [
      {
        file: RUN_ACTION,
        find: '  return join(paths.screenshots, `screenshot-${stamp}',
        // A shared temporary folder, as before (named apart, so a run leaves no file in a real one).
        replace:
          "  return join(process.env.TMPDIR ?? '/tmp', 'bproxy-mutant-screenshots', `screenshot-${stamp}",
      },
    ],
    kills: [
      `${SHOTS} › writes to BPROXY_HOME/screenshots (0700, the image 0600), not the working directory, without --out`,
      NATIVE,
    ],
  },
  {
    id: 'screenshot-out-no-follow',
    protects: '--out is never written through a symbolic link',
    edits: [
      {
        file: RUN_ACTION,
        find: '      constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0),',
        replace: '      constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC,',
      },
    ],
    kills: [`${SHOTS} › refuses --out when it is a symbolic link, leaving the file it points to untouched`],
  },
];
