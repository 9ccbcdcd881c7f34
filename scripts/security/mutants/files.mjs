// Removals of the threat model's lines on files an agent hands a page (upload): the allowed folders,
// checked in the daemon before anything is forwarded, and the chooser answered with what the input takes.

const FOLDERS =
  'packages/daemon/test/files/allowed-folders.test.ts › files an agent may hand a page (allowed folders)';
const CONFIG =
  'packages/client/test/lifecycle/files-config.test.ts › the folders a person allows (files.json, --allow-files)';
const OUT =
  'packages/daemon/test/files/allowed-folders.test.ts › where the daemon may write a file an agent asked for (pdf --out)';
const KIT = 'packages/driver/test/files/upload.test.ts › upload in the driver kit';
const STATE_PATHS =
  'packages/daemon/test/actions/state-files.test.ts › state file paths › refuses a .. part, a folder outside, a missing folder, and a folder or file that links out';
const NET = "packages/daemon/test/observe/network-files.test.ts › the network read's files";
const BOTH_DRIVERS = ['tests/e2e/files-cdp.test.ts', 'tests/e2e/files-extension.test.ts'];

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  {
    id: 'upload-no-dotdot',
    protects: 'a path naming ".." is refused by name (upload, pdf, state files: the one checker)',
    edits: [
      {
        file: 'packages/daemon/src/files/allowed-folders.ts',
        find: "  if (raw.split(/[\\\\/]/).includes('..'))\n    return {",
        replace: "  if (raw.split(/[\\\\/]/).includes('..') && raw === '')\n    return {",
      },
    ],
    kills: [`${FOLDERS} › refuses any path naming "..", even one that would stay inside`, STATE_PATHS],
  },
  {
    id: 'upload-inside-as-written',
    protects: 'a path outside the allowed folders is refused before it is looked at',
    edits: [
      {
        file: 'packages/daemon/src/files/allowed-folders.ts',
        find: '  if (!folders.some((folder) => isInside(folder, written)))\n    return { ok: false,',
        replace:
          '  if (!folders.some((folder) => isInside(folder, written)) && written === raw.slice(1))\n    return { ok: false,',
      },
    ],
    kills: [`${FOLDERS} › refuses a path outside every allowed folder, without looking whether it exists`],
  },
  {
    id: 'upload-real-path-inside',
    protects: 'a symbolic link out of the allowed folders is refused',
    edits: [
      {
        file: 'packages/daemon/src/files/allowed-folders.ts',
        find: '  if (!folders.some((folder) => isInside(folder, real)))',
        replace: '  if (!folders.some((folder) => isInside(folder, written)))',
      },
    ],
    kills: [`${FOLDERS} › refuses a symbolic link out, to a file or through a folder`],
  },
  {
    id: 'upload-size-cap',
    protects: 'a file over the upload cap is refused',
    edits: [
      {
        file: 'packages/daemon/src/files/allowed-folders.ts',
        find: '  if (stats.size > rules.maxBytes)',
        replace: '  if (stats.size > rules.maxBytes * 1e9)',
      },
    ],
    kills: [
      `${FOLDERS} › answers FILE_NOT_FOUND inside for a missing file, a folder, and a file over the size cap`,
    ],
  },
  {
    id: 'upload-checked-before-forward',
    protects: 'the daemon checks the files before forwarding an upload',
    edits: [
      {
        file: 'packages/daemon/src/actions/tab-steps.ts',
        find: "  [['upload'], uploadStep],\n",
        replace: '',
      },
    ],
    kills: [
      'packages/daemon/test/files/upload.test.ts › upload through the daemon › refuses files outside the allowed folders, "..", and links out before anything reaches the browser',
    ],
  },
  {
    id: 'upload-checked-both-drivers',
    protects: 'both drivers refuse files outside the allowed folders and set nothing',
    build: true,
    run: BOTH_DRIVERS,
    edits: [
      {
        file: 'packages/daemon/src/actions/tab-steps.ts',
        find: "  [['upload'], uploadStep],\n",
        replace: '',
      },
    ],
    kills: [
      'tests/kit/suites/files.ts › refuses a file outside the allowed folders, a path naming "..", a link out, a refused type and two files for one: a code each, nothing set',
    ],
  },
  {
    id: 'allow-files-not-implicit',
    protects: 'an implicit start cannot widen the allowed folders',
    edits: [
      {
        file: 'packages/client/src/lifecycle/daemon-args.ts',
        find: '  if (implicit && allowFiles.length > 0)',
        replace: '  if (implicit && allowFiles.length > 1e9)',
      },
    ],
    kills: [
      `${CONFIG} › takes --allow-files DIR (repeatable, absolute) from service start, and refuses it on an implicit start`,
    ],
  },
  {
    id: 'files-json-absolute',
    protects: 'files.json names absolute folders only, in its one shape',
    edits: [
      {
        file: 'packages/client/src/lifecycle/files-config.ts',
        find: "  if (file === 'invalid' || !file.allow.every((dir) => isAbsolute(dir)))",
        replace: "  if (file === 'invalid')",
      },
    ],
    kills: [
      `${CONFIG} › refuses files.json open to others, a symlink, a relative folder or another shape (fail closed)`,
    ],
  },
  {
    id: 'upload-accept-respected',
    protects: "a file the input's accept or single mode refuses is never set",
    edits: [
      {
        file: 'packages/driver/src/files/upload.ts',
        find: '    checkAccepted(opened, await page.acceptOf(opened.backendNodeId), files);',
        replace: '    await page.acceptOf(opened.backendNodeId);',
      },
    ],
    kills: [`${KIT} › sets nothing the input refuses: a type outside accept, two files for one`],
  },
  {
    id: 'upload-intercept-released',
    protects: "the tab's own file choosers open again after an upload",
    edits: [
      {
        file: 'packages/driver/src/files/upload.ts',
        find: '    await page.interceptChooser(false).catch(() => undefined);',
        replace: '    await Promise.resolve();',
      },
    ],
    kills: [`${KIT} › answers the chooser the click opened, intercepting only around it`],
  },
  {
    id: 'pdf-out-inside',
    protects: 'pdf --out outside the allowed folders is refused',
    edits: [
      {
        file: 'packages/daemon/src/files/allowed-folders.ts',
        find: '  const parent = realOrNull(dirname(written));',
        replace:
          '  const parent = realOrNull(dirname(written)); if (parent !== null) return { ok: true, path: join(parent, basename(written)) };',
      },
    ],
    kills: [
      `${OUT} › refuses outside, "..", a folder that is a link out, an existing link, and a folder itself`,
    ],
  },
  {
    id: 'pdf-checked-both-drivers',
    protects: 'both drivers write a PDF only inside the allowed folders',
    build: true,
    run: BOTH_DRIVERS,
    edits: [
      {
        file: 'packages/daemon/src/files/pdf.ts',
        find: '  if (!checked.ok) return failed(checked.code, checked.message);',
        replace: '  if (!checked.ok && checked.message === "") return failed(checked.code, checked.message);',
      },
    ],
    kills: [
      "tests/kit/suites/files.ts › saves the page as PDF in the session's folder or --out inside an allowed folder, and refuses --out outside",
    ],
  },
  {
    id: 'upload-not-remote',
    protects: 'a remote or farm browser is never handed a path of this machine',
    edits: [
      {
        file: 'packages/daemon/src/files/upload.ts',
        find: '  if (deps.launchers.isRemote(client))',
        replace: "  if (deps.launchers.isRemote(client) && client.name === '')",
      },
    ],
    kills: [
      'packages/daemon/test/files/upload.test.ts › upload through the daemon › refuses upload on a browser that runs elsewhere (a remote endpoint), which could not read a path here',
    ],
  },
  {
    id: 'path-inside-allowed',
    protects: 'a file to write is only in an allowed folder (pdf, state save, network har)',
    edits: [
      {
        file: 'packages/daemon/src/files/allowed-folders.ts',
        find: '  if (!folders.some((folder) => isInside(folder, written)))\n    return { ok: false,',
        replace: '  if (folders.length < 0)\n    return { ok: false,',
      },
      {
        file: 'packages/daemon/src/files/allowed-folders.ts',
        find: '  if (!folders.some((folder) => isInside(folder, path) && path !== folder))',
        replace: '  if (folders.length < 0)',
      },
    ],
    kills: [
      `${NET} › puts a plain name in the session's folder and refuses .., absolute paths and links out of it`,
      `${NET} › writes an absolute path only inside a folder the user allowed (files.json, --allow-files)`,
      "packages/daemon/test/actions/state-doors.test.ts › the user's own Chrome: cookies are the user's › writes state save from what the driver answered, 0600 in BPROXY_HOME/state, and refuses a path out before asking the driver",
    ],
  },
  {
    id: 'path-write-folder-real',
    protects:
      "a file to write is refused when its folder's real path leaves the allowed folders (a link out)",
    build: true,
    run: [
      'tests/e2e/state-cdp.test.ts',
      'tests/e2e/state-extension.test.ts',
      'tests/e2e/observe-cdp.test.ts',
      'tests/e2e/observe-extension.test.ts',
    ],
    edits: [
      {
        file: 'packages/daemon/src/files/allowed-folders.ts',
        find: '  if (!folders.some((folder) => isInside(folder, path) && path !== folder))',
        replace: '  if (!folders.some((folder) => isInside(folder, written) && path !== folder))',
      },
    ],
    kills: [
      STATE_PATHS,
      `${NET} › puts a plain name in the session's folder and refuses .., absolute paths and links out of it`,
      'tests/kit/suites/state.ts › refuses a state file out of the allowed folders — a .. part, another folder, a link out — and writes nothing',
      "tests/kit/suites/observe.ts › exports HAR 0600 into the session's folder, redacted, and refuses paths that leave it",
    ],
  },
  {
    id: 'path-write-no-link',
    protects: 'an existing file to write must be a regular file, never a link',
    edits: [
      {
        file: 'packages/daemon/src/files/allowed-folders.ts',
        find: '  if (existing !== null && !existing.isFile()) return no(',
        replace: "  if (existing !== null && !existing.isFile() && raw === '') return no(",
      },
    ],
    kills: [
      STATE_PATHS,
      `${OUT} › refuses outside, "..", a folder that is a link out, an existing link, and a folder itself`,
    ],
  },
  {
    id: 'path-write-nofollow-0600',
    protects: 'files the daemon writes for an agent are 0600, never written through a link',
    edits: [
      {
        file: 'packages/daemon/src/files/allowed-folders.ts',
        find: 'constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW',
        replace: 'constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC',
      },
      {
        file: 'packages/daemon/src/files/allowed-folders.ts',
        find: '    fchmodSync(fd, 0o600);',
        replace: '',
      },
    ],
    kills: [`${NET} › writes 0600 and refuses to write through a link`],
  },
  {
    id: 'path-no-env-var',
    protects: 'no environment variable widens the allowed folders (an implicit start could inherit it)',
    edits: [
      {
        file: 'packages/daemon/src/actions/state-files.ts',
        find: '    folders: [stateDir, ...rules.folders],',
        replace:
          "    folders: [stateDir, ...rules.folders, ...(process.env.BPROXY_ALLOW_FILES ?? '').split(':').filter(Boolean)],",
      },
    ],
    kills: [
      'packages/daemon/test/actions/state-files.test.ts › state file paths › takes the folders the user allowed (files.json, --allow-files), and no environment variable',
    ],
  },
  {
    id: 'agent-no-upload',
    protects: 'the in-browser agent is not offered upload',
    edits: [
      {
        file: 'packages/agent/src/tools/browser-tools.ts',
        find: "  'batch',\n  'upload',\n]);",
        replace: "  'batch',\n]);",
      },
    ],
    kills: [
      'packages/agent/test/tools/browser-tools.test.ts › the browser tools of the in-browser agent › does not offer upload, and a call naming it reaches no daemon',
    ],
  },
];
