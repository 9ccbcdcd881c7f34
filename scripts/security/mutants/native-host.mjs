// Removals of the threat model's sections 10 and 11: the native messaging host and the directory the
// compiled CLI runs in.

const RUN_HOST = 'packages/native-host/test/run-host.test.ts';
const PROCESS = 'packages/native-host/test/host-process.test.ts';
const REGISTRATION = 'packages/native-host/test/registration.test.ts › registration on %s';
const HOST_LOG = 'packages/native-host/test/host-log.test.ts › host.log';
const FILES = 'packages/native-host/src/registration/files.ts';
const MANIFEST_FILES = `${REGISTRATION} › tightens a NativeMessagingHosts folder others can write to, and replaces a symlink planted at the manifest without writing through it`;
const TRUST = 'packages/native-host/src/registration/trust.ts';
const STATUS = 'packages/native-host/src/registration/status.ts';
const WALK = 'packages/native-host/test/registration-trust.test.ts › what the browser would run';
const INSTALL_REFUSES = `${REGISTRATION} › install refuses a Node, bundle or folder above them that others can change, naming the path and the fix`;
const STATUS_UNSAFE = `${REGISTRATION} › status calls a launcher unsafe when what it runs, or a folder above, became writable by others, and does not run it`;
const COPY = "packages/native-host/test/registration/copy.test.ts › the host's own copy in BPROXY_HOME";
const COPY_LINKS = `${COPY} › refuses a version that is not a folder name, and a linked package others can change`;

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  {
    id: 'host-manifest-folder-tightened',
    protects: 'an existing NativeMessagingHosts folder others can write to loses group and other write',
    edits: [
      {
        file: FILES,
        find: '  if (ours && (stats.mode & 0o022) !== 0) chmodSync(dir, stats.mode & 0o7777 & ~0o022);',
        replace: '  if (false) chmodSync(dir, stats.mode & 0o7777 & ~0o022);',
      },
    ],
    kills: [MANIFEST_FILES],
  },
  {
    id: 'host-manifest-no-write-through',
    protects: 'a symlink planted at a manifest is replaced, never written through',
    edits: [
      {
        file: FILES,
        find: '    renameSync(temp, path);\n    renamed = true;',
        replace:
          '    writeSync(openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC, mode), bytes);\n    unlinkSync(temp);\n    renamed = true;',
      },
    ],
    kills: [MANIFEST_FILES],
  },
  {
    id: 'host-caller-origin',
    protects: 'the host serves our extension only, checked before stdin is read',
    edits: [
      {
        file: 'packages/native-host/src/origin.ts',
        find: '  if (!expected.includes(caller))\n',
        replace: '  if (caller === "\\u0000")\n',
      },
      {
        file: 'packages/native-host/src/origin.ts',
        find: "  if (caller === undefined) return { ok: false, reason: 'no caller origin argument' };",
        replace: "  if (caller === undefined) return { ok: true, origin: '' };",
      },
    ],
    kills: [
      `${RUN_HOST} › the caller-origin gate › refuses %s before touching stdin, exiting non-zero`,
      `${PROCESS} › the caller-origin gate of the real process › exits non-zero for %s with stdin still open, answering nothing`,
      'packages/native-host/test/terminal-process.test.ts › the doors to a terminal › refuses another extension before any frame: the host exits and nothing spawns',
    ],
  },
  {
    id: 'host-caller-trusted-ids',
    protects: "the host accepts the trusted ids of BPROXY_HOME's extensions.json",
    edits: [
      {
        file: 'packages/native-host/src/origin.ts',
        find: '    expected = trustedExtensionIds(statePaths(resolveHome(env))).map(extensionOrigin);',
        replace: "    expected = [extensionOrigin('oajmbecmcoogehkeimcopdfcilgnicbm')];",
      },
    ],
    kills: [
      `${RUN_HOST} › the caller-origin gate › accepts an extension id trusted in BPROXY_HOME/extensions.json, with Windows arguments after it`,
    ],
  },
  {
    id: 'host-caller-unsafe-setting',
    protects: 'an unsafe extensions.json refuses every caller of the host',
    edits: [
      {
        file: 'packages/native-host/src/origin.ts',
        find: '    return { ok: false, reason: error instanceof Error ? error.message : String(error) };\n  }\n  const caller',
        replace: "    expected = [extensionOrigin('oajmbecmcoogehkeimcopdfcilgnicbm')];\n  }\n  const caller",
      },
    ],
    kills: [
      `${RUN_HOST} › the caller-origin gate › refuses every caller, ours included, when extensions.json is open to others`,
    ],
  },
  {
    id: 'host-manifest-one-origin',
    protects: "the manifest's allowed_origins is exactly our extension",
    edits: [
      {
        file: 'packages/native-host/src/registration/manifest.ts',
        find: '    allowed_origins: extensionIds.map(extensionOrigin),',
        replace:
          "    allowed_origins: [...extensionIds.map(extensionOrigin), 'chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/'],",
      },
    ],
    kills: [
      `${REGISTRATION} › puts our manifest in every installed browser's NativeMessagingHosts folder, pointing at one launcher`,
    ],
  },
  {
    id: 'host-launcher-mode',
    protects: 'the launcher is not writable by group or others',
    edits: [
      { file: 'packages/native-host/src/registration/install.ts', find: '    0o755,', replace: '    0o777,' },
    ],
    kills: [
      `${REGISTRATION} › puts our manifest in every installed browser's NativeMessagingHosts folder, pointing at one launcher`,
    ],
  },
  {
    id: 'host-install-trusts-id',
    protects: '--extension-id is added to the one trusted-ids setting, which the manifests allow',
    edits: [
      {
        file: 'packages/native-host/src/registration/install.ts',
        find: '      added = addTrustedExtensionId(statePaths(context.stateHome), extensionId);',
        replace: '      added = false;',
      },
    ],
    kills: [
      `${REGISTRATION} › bakes no BPROXY_HOME when none was set, and trusts another extension id when one was given`,
      'packages/cli/test/host/host-commands.test.ts › trusted extension ids › a daemon started by the CLI accepts the extension id added with --extension-id, and still refuses any other',
    ],
  },
  {
    id: 'host-status-wrong-origin',
    protects: 'status calls a manifest with another origin stale',
    edits: [
      {
        file: 'packages/native-host/src/registration/manifest.ts',
        find: '  if (!same)\n',
        replace: '  if (!Array.isArray(origins))\n',
      },
    ],
    kills: [
      `${REGISTRATION} › status names what is stale: wrong origin, missing launcher, launcher of another install, wrong node, loose modes`,
    ],
  },
  {
    id: 'host-uninstall-only-ours',
    protects: 'uninstall removes only manifests that still point at our launcher',
    edits: [
      {
        file: 'packages/native-host/src/registration/uninstall.ts',
        find: '  return manifest?.name === NATIVE_HOST_NAME && manifest.path === launcher;',
        replace: '  return manifest?.name === NATIVE_HOST_NAME;',
      },
    ],
    kills: [`${REGISTRATION} › uninstall removes exactly what install wrote, and nothing that is not ours`],
  },
  {
    id: 'host-uninstall-only-our-keys',
    protects: 'uninstall deletes only registry keys that still point at our manifest',
    edits: [
      {
        file: 'packages/native-host/src/registration/uninstall.ts',
        find: '  if (value !== entry.manifest)\n',
        replace: '  if (value === "\\u0000")\n',
      },
    ],
    kills: [
      `${REGISTRATION} › registration on Windows (a scripted registry) › uninstall deletes the keys still pointing at our manifest and leaves one that another program took`,
    ],
  },
  {
    id: 'host-stdout-frames-only',
    protects: 'stray writes to stdout never reach the port',
    edits: [
      {
        file: 'packages/native-host/src/stdout-guard.ts',
        find: '  stdout.write = stray as typeof stdout.write;',
        replace: '  void stray;',
      },
    ],
    kills: [
      `${PROCESS} › stdout of the real host process › carries frames only when a handler prints to the console and to stdout itself`,
    ],
  },
  {
    id: 'host-console-diverted',
    protects: 'console output never reaches the port',
    edits: [
      {
        file: 'packages/native-host/src/stdout-guard.ts',
        find: "        log.warn('stray_console', { method, args: args.length });",
        replace:
          "        log.warn('stray_console', { method, args: args.length });\n        realWrite(Buffer.from(String(args[0])), () => undefined);",
      },
    ],
    kills: [
      `${PROCESS} › stdout of the real host process › carries frames only when a handler prints to the console and to stdout itself`,
    ],
  },
  {
    id: 'host-frame-cap',
    protects: 'a message over 64 MiB is refused as its header arrives',
    edits: [
      {
        file: 'packages/native-host/src/framing.ts',
        find: '    if (length > this.maxBytes) {',
        replace: '    if (false) {',
      },
    ],
    kills: [
      'packages/native-host/test/framing.test.ts',
      `${RUN_HOST} › frames the host cannot take`,
      `${PROCESS} › stdout of the real host process › carries frames only, through errors, refusals, an oversized message and the close`,
    ],
  },
  {
    id: 'host-pairing-code-not-logged',
    protects: 'the pairing code goes to the port only, never host.log',
    edits: [
      {
        file: 'packages/native-host/src/port-session.ts',
        find: "        log.info('pairing_issued', { port: issued.port, started: issued.started });",
        replace:
          "        log.info('pairing_issued', { port: issued.port, started: issued.started, issued: issued.code });",
      },
    ],
    kills: [
      `${RUN_HOST} › the daemon locator and pairing › locates without starting unless asked, and pairs with a code that reaches the browser and not the log`,
      `${PROCESS} › zero-touch pairing through the real host › starts the daemon implicitly, detached in its own process group, and hands out a code /pair/claim accepts`,
    ],
  },
  {
    id: 'host-log-mode',
    protects: 'host.log is 0600 in a 0700 folder',
    edits: [
      {
        file: 'packages/native-host/src/host-log.ts',
        find: "      if (process.platform !== 'win32') fchmodSync(fd, 0o600);",
        replace: "      if (process.platform !== 'win32') fchmodSync(fd, 0o644);",
      },
    ],
    kills: [`${HOST_LOG} › writes one JSON line per event, 0600 in a 0700 folder, like the daemon log`],
  },
  {
    id: 'host-log-redacts',
    protects: 'fields named like secrets or content are redacted in host.log',
    edits: [
      {
        file: 'packages/native-host/src/host-log.ts',
        find: "    if (REDACTED.has(name)) line[name] = '[redacted]';",
        replace: "    if (REDACTED.has('\\u0000' + name)) line[name] = '[redacted]';",
      },
    ],
    kills: [`${HOST_LOG} › redacts fields named like secrets or content, and cuts long strings`],
  },
  {
    id: 'host-log-no-follow',
    protects: 'host.log never follows a planted symlink',
    edits: [
      {
        file: 'packages/native-host/src/host-log.ts',
        find: '      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0),',
        replace: '      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT,',
      },
    ],
    kills: [
      `${HOST_LOG} › never follows a symlink planted as host.log, and drops the line instead of throwing`,
    ],
  },
  {
    id: 'host-install-trust',
    protects: 'install refuses a Node, bundle or folder above them that others can change',
    edits: [
      {
        file: 'packages/native-host/src/registration/install.ts',
        find: '  checkTrust(options, files.dir);',
        replace: '',
      },
    ],
    kills: [INSTALL_REFUSES],
  },
  {
    id: 'host-install-linked-packages-trust',
    protects:
      "install refuses when a package the host's copy would link to, or a folder above it, is others' to change",
    edits: [
      {
        file: 'packages/native-host/src/registration/install.ts',
        find: '    return found === null ? [] : trustProblems(found);',
        replace: '    return found === null ? [] : [];',
      },
    ],
    kills: [COPY_LINKS],
  },
  {
    id: 'host-copy-modes',
    protects: "the host's copy is 0644 files in a 0700 folder",
    edits: [
      {
        file: 'packages/native-host/src/registration/copy.ts',
        find: "  files.forEach((name, index) => writeFileAtomic(join(dir, ...name.split('/')), texts[index] ?? '', 0o644));",
        replace:
          "  files.forEach((name, index) => writeFileAtomic(join(dir, ...name.split('/')), texts[index] ?? '', 0o666));",
      },
      {
        file: 'packages/native-host/src/registration/copy.ts',
        find: '  ensureFolder(dir, 0o700);',
        replace: '  ensureFolder(dir, 0o777);',
      },
    ],
    kills: [
      `${COPY} › install copies every bundle into BPROXY_HOME/host/<version>, links the externals, and the launcher runs the copy`,
    ],
  },
  {
    id: 'host-copy-links-walked',
    protects: "status walks the links in the host copy's node_modules and the folders to what they name",
    edits: [{ file: TRUST, find: '    ...packagesBeside(bundle),\n', replace: '' }],
    kills: [COPY_LINKS],
  },
  {
    id: 'host-copy-agent-chunks',
    protects:
      "the host's copy carries the agent's chunks, so the copy never imports them from the installing package",
    edits: [
      {
        file: 'packages/native-host/src/registration/copy.ts',
        find: '  return [basename(bundle), ...others, ...chunks];',
        replace: '  return [basename(bundle), ...others];',
      },
    ],
    kills: [
      `${COPY} › install copies every bundle into BPROXY_HOME/host/<version>, links the externals, and the launcher runs the copy`,
    ],
  },
  {
    id: 'host-copy-version-folder',
    protects: "the host's copy is named by a version only, inside BPROXY_HOME/host",
    edits: [
      {
        file: 'packages/native-host/src/registration/copy.ts',
        find: "  if (!VERSION_FOLDER.test(version) || version.includes('..'))",
        replace: '  if (false)',
      },
    ],
    kills: [COPY_LINKS],
  },
  {
    id: 'host-copy-inside-host-folder',
    protects: "a copy's removal stays inside BPROXY_HOME/host, whatever install.json says",
    edits: [
      {
        file: 'packages/native-host/src/registration/copy.ts',
        find: '  if (dirname(copy.dir) !== hostDir) return [];',
        replace: '',
      },
    ],
    kills: [`${COPY} › removes nothing outside BPROXY_HOME/host on the word of a record edited by hand`],
  },
  {
    id: 'host-copy-uninstall-only-recorded',
    protects: "uninstall removes only the files and links install recorded in the host's copy",
    edits: [
      {
        file: 'packages/native-host/src/registration/uninstall.ts',
        find: '    if (record.copy !== undefined) removedFiles.push(...removeHostCopy(record.copy, files.dir));',
        replace:
          "    if (record.copy !== undefined) (await import('node:fs')).rmSync(record.copy.dir, { recursive: true, force: true });",
      },
    ],
    kills: [`${COPY} › uninstall removes the copy with the launcher, and leaves what it did not write`],
  },
  {
    id: 'host-status-what-it-runs',
    protects: 'status checks the Node and bundle the launcher runs, and the folders above them',
    edits: [
      {
        file: STATUS,
        find: '  const runsTrust = launchedTrustProblems(runs.node, runs.bundle);',
        replace: '  const runsTrust: string[] = [];',
      },
    ],
    kills: [STATUS_UNSAFE],
  },
  {
    id: 'host-status-launcher-folders',
    protects: 'status checks the launcher and the folders above it',
    edits: [
      {
        file: STATUS,
        find: '  if (launcherTrust.length > 0) return { problems: [...problems, ...launcherTrust], unsafe: true };',
        replace: '',
      },
    ],
    kills: [STATUS_UNSAFE],
  },
  {
    id: 'host-status-no-probe-unsafe',
    protects: 'status does not run a launcher others could have changed',
    edits: [
      {
        file: STATUS,
        find: ' && !unsafe && options.probe !== false',
        replace: ' && options.probe !== false',
      },
    ],
    kills: [STATUS_UNSAFE],
  },
  {
    id: 'trust-follows-links',
    protects: 'the walk follows symbolic links and checks the folders of their targets',
    edits: [{ file: TRUST, find: '    if (!stats.isSymbolicLink()) {', replace: '    if (true) {' }],
    kills: [
      `${WALK} › follows symbolic links, relative ones with .. too, and checks the folders of their targets and their owners`,
    ],
  },
  {
    id: 'trust-owner',
    protects: 'a component owned by neither the user nor root is named',
    edits: [{ file: TRUST, find: '  if (stats.uid !== uid && stats.uid !== 0)', replace: '  if (false)' }],
    kills: [
      `${WALK} › names a folder owned by another user even when its mode is tight`,
      `${WALK} › follows symbolic links, relative ones with .. too, and checks the folders of their targets and their owners`,
      INSTALL_REFUSES,
    ],
  },
  {
    id: 'trust-root-owner',
    protects: 'folders owned by root are trusted',
    edits: [
      {
        file: TRUST,
        find: '  if (stats.uid !== uid && stats.uid !== 0)',
        replace: '  if (stats.uid !== uid)',
      },
    ],
    kills: [`${WALK} › is fine in folders of ours or root, and in a sticky folder everyone may add to`],
  },
  {
    id: 'trust-folders-above',
    protects: 'every folder above what the browser runs is checked, not the file alone',
    edits: [
      {
        file: TRUST,
        find: '    report(componentProblem(next, stats, uid, rest.length === 0, privateGroup));',
        replace: '    if (rest.length === 0) report(componentProblem(next, stats, uid, true, privateGroup));',
      },
      {
        file: TRUST,
        find: '  report(componentProblem(root, top, uid, rest.length === 0, privateGroup));',
        replace: '',
      },
    ],
    kills: [
      `${WALK} › names each folder above it that others can write to, and the file itself`,
      INSTALL_REFUSES,
      STATUS_UNSAFE,
    ],
  },
  {
    id: 'trust-beside-bundle',
    protects: 'the bundles the host loads from beside it are checked too',
    edits: [
      {
        file: TRUST,
        find: '    ...BESIDE_BUNDLE.map((name) => join(dirname(bundle), name)),\n',
        replace: '',
      },
    ],
    kills: [`${WALK} › checks the bundles the host loads from beside it, once per problem`],
  },
  {
    id: 'trust-agent-chunks',
    protects: "the agent's chunks the host imports from agent-chunks/ are checked too",
    edits: [
      {
        file: TRUST,
        find: '    ...agentChunks(bundle),\n',
        replace: '',
      },
    ],
    kills: [
      `${WALK} › checks the agent's chunks it imports from agent-chunks/, and that folder`,
      `${COPY} › status walks the copy's agent chunks, which the host imports, and does not run a launcher whose chunk others can change`,
    ],
  },
  {
    id: 'trust-group-write',
    protects: "group write counts unless the group is the user's alone",
    edits: [
      {
        file: TRUST,
        find: '  const writers = stats.mode & (privateGroup(stats.gid) ? 0o002 : 0o022);',
        replace: '  const writers = stats.mode & 0o002;',
      },
    ],
    kills: [
      `${WALK} › accepts group write when the group is the user's alone (a user private group), not when others can be in it`,
      `${WALK} › names each folder above it that others can write to, and the file itself`,
      STATUS_UNSAFE,
    ],
  },
  {
    id: 'trust-private-group',
    protects: "group write is accepted when the group is the user's alone",
    edits: [
      {
        file: TRUST,
        find: '  const writers = stats.mode & (privateGroup(stats.gid) ? 0o002 : 0o022);',
        replace: '  const writers = stats.mode & 0o022;',
      },
    ],
    kills: [
      `${WALK} › accepts group write when the group is the user's alone (a user private group), not when others can be in it`,
    ],
  },
  {
    id: 'trust-sticky',
    protects: 'a sticky folder everyone may add to is fine',
    edits: [
      {
        file: TRUST,
        find: '  if (stats.isDirectory() && !last && (stats.mode & 0o1000) !== 0) return null;',
        replace: '',
      },
    ],
    kills: [
      `${WALK} › is fine in folders of ours or root, and in a sticky folder everyone may add to`,
      INSTALL_REFUSES,
    ],
  },
  {
    id: 'cli-no-dotenv',
    protects: 'the compiled CLI reads no .env or bunfig.toml from its directory',
    edits: [
      {
        file: 'scripts/compile-cli.mjs',
        find: "      '--no-compile-autoload-dotenv',\n      '--no-compile-autoload-bunfig',",
        replace: '',
      },
    ],
    kills: [
      'packages/cli/test/cli-native.test.ts › the compiled binary against the full program › reads no .env or bunfig.toml from the directory it runs in',
    ],
  },
];
