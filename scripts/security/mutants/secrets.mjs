// Removals of the threat model's section 16, "Secrets the model never sees": the sealed store and its
// key, the origin a secret is filled on, and the masking of every answer after it.

const STORE = 'packages/client/test/lifecycle/secret-store.test.ts › the secret store';
const DAEMON = 'packages/daemon/test/actions/secret-fill.test.ts › fill --secret in the daemon';
const PAGE = 'packages/page/test/actions/fill-secret.browser.test.ts › fill with a secret in the page';
const KEYRING = 'packages/cli/test/secret-keyring.test.ts › bproxy secret with a real keyring (libsecret)';
const SUITE = 'tests/kit/suites/secrets.ts';
const BOTH_DRIVERS = ['tests/e2e/secrets-cdp.test.ts', 'tests/e2e/secrets-extension.test.ts'];

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  {
    id: 'secret-keyring-real',
    protects: 'on Linux the store key goes to the real keyring (secret-tool), not a file',
    edits: [
      {
        file: 'packages/client/src/lifecycle/secret-keychain.ts',
        find: '    return secretToolKeychain(home, run);',
        replace: '    return null;',
      },
    ],
    kills: [
      `${KEYRING} › keeps the store key in the keyring and in no file, says so in doctor, and opens secrets with it`,
    ],
    build: true,
  },
  {
    id: 'secret-doctor-opens',
    protects: 'doctor opens every secret with the key where the store says it is (a locked keyring fails)',
    edits: [
      {
        file: 'packages/client/src/lifecycle/secret-store.ts',
        find: '  if (entries.length > 0) {\n    const key = loadKey(paths, store.key, options, home);',
        replace: '  if (entries.length < 0) {\n    const key = loadKey(paths, store.key, options, home);',
      },
    ],
    kills: [`${KEYRING} › names a locked keyring in doctor: the store does not open from anywhere else`],
    build: true,
  },
  {
    id: 'secret-sealed',
    protects: 'a secret is stored sealed (AES-256-GCM), never as its value',
    edits: [
      {
        file: 'packages/client/src/lifecycle/secret-store.ts',
        find: "    data: data.toString('base64'),\n",
        replace: "    data: Buffer.from(value, 'utf8').toString('base64'),\n",
      },
    ],
    kills: [
      `${STORE} › seals each value with AES-256-GCM in a 0600 file, opens it again, and lists names and origins only`,
    ],
  },
  {
    id: 'secret-name-origin-bound',
    protects:
      "a secret's name and origin are bound into its seal: an origin edited in the file opens nothing",
    edits: [
      {
        file: 'packages/client/src/lifecycle/secret-store.ts',
        find: '  cipher.setAAD(AAD(name, origin));\n',
        replace: "  cipher.setAAD(AAD('', ''));\n",
      },
      {
        file: 'packages/client/src/lifecycle/secret-store.ts',
        find: '    decipher.setAAD(AAD(name, sealed.origin));\n',
        replace: "    decipher.setAAD(AAD('', ''));\n",
      },
    ],
    kills: [
      `${STORE} › detects tampering: a changed ciphertext, an origin edited in the file, a value moved to another name`,
    ],
  },
  {
    id: 'secret-key-file-checked',
    protects: 'the key file is read with the checks of every secret file (0600, ours, no link)',
    edits: [
      {
        file: 'packages/client/src/lifecycle/secret-store.ts',
        find: "import { mkdirSync } from 'node:fs';",
        replace: "import { mkdirSync, readFileSync } from 'node:fs';",
      },
      {
        file: 'packages/client/src/lifecycle/secret-store.ts',
        find: '    return readStateFile(paths.keyFile)?.trim() ?? null;',
        replace: "    return readFileSync(paths.keyFile, 'utf8').trim();",
      },
    ],
    kills: [
      `${STORE} › refuses a store or key file open to others, or a symbolic link, as the token files are`,
    ],
  },
  {
    id: 'secret-key-not-in-argv',
    protects: 'the key goes to secret-tool on its standard input, never on its command line',
    edits: [
      {
        file: 'packages/client/src/lifecycle/secret-keychain.ts',
        find: "run('secret-tool', ['store', '--label', 'bproxy secret store key', ...attributes], key)",
        replace: "run('secret-tool', ['store', '--label', key, ...attributes], key)",
      },
    ],
    kills: [
      `${STORE} › keeps the key in the keyring when secret-tool stores and gives it back, on stdin and stdout only`,
    ],
  },
  {
    id: 'secret-keychain-fallback',
    protects: 'a keychain that does not take and give back the key is passed over for the 0600 file',
    edits: [
      {
        file: 'packages/client/src/lifecycle/secret-store.ts',
        find: '    if (keyStore.store(base64) && keyStore.lookup() === base64) return',
        replace: '    if (keyStore.store(base64) || keyStore.place !== undefined) return',
      },
    ],
    kills: [
      `${STORE} › falls back to the 0600 key file when secret-tool is absent or no keyring answers, and says why`,
    ],
  },
  {
    id: 'secret-daemon-masks',
    protects: 'every answer the daemon sends after a fill by secret masks its value',
    edits: [
      {
        file: 'packages/daemon/src/actions/secret-fill.ts',
        find: '  return maskSecrets(outcome, secrets.used);',
        replace: '  return maskSecrets(outcome, []);',
      },
    ],
    kills: [
      `${DAEMON} › hands the driver the value and its origin, answers without it, and masks it in every later answer, the feed and the log`,
    ],
  },
  {
    id: 'secret-refusal-in-feed',
    protects: 'a refused fill (another origin) shows in the activity feed with its code',
    edits: [
      {
        file: 'packages/daemon/src/actions/activity-trail.ts',
        find: '  if (!outcome.ok) entry.error = { code: outcome.error.code, message: firstLine(outcome.error.message) };',
        replace: '',
      },
    ],
    kills: [
      `${DAEMON} › shows a fill refused for another origin in the activity feed, its code and without the value`,
    ],
  },
  {
    id: 'secret-name-known',
    protects: 'an unknown secret name is its own code, and nothing is forwarded',
    edits: [
      {
        file: 'packages/daemon/src/actions/secret-fill.ts',
        find: '  if (found === null)\n    return failed(',
        replace: "  if (found === null && name === '')\n    return failed(",
      },
    ],
    kills: [
      `${DAEMON} › answers SECRET_NOT_FOUND for an unknown name and SECRET_STORE_UNREADABLE for a store it cannot read, forwarding nothing`,
    ],
  },
  {
    id: 'secret-or-value',
    protects: 'fill takes a value or a secret, exactly one',
    edits: [
      {
        file: 'packages/protocol/src/schemas/interaction.ts',
        find: ".refine((p) => (p.value === undefined) !== (p.secret === undefined), 'give value or secret, exactly one');",
        replace: ".refine((p) => p.target !== undefined, 'give value or secret, exactly one');",
      },
    ],
    kills: [`${DAEMON} › takes a value or a secret, exactly one`],
  },
  {
    id: 'secret-page-masks',
    protects:
      'the page script masks a secret it filled in every later answer, before any driver or storage sees it',
    edits: [
      {
        file: 'packages/page/src/dispatch.ts',
        find: '  return maskSecrets(await runUnmasked(ctx, action, params), ctx.secrets);',
        replace: '  return maskSecrets(await runUnmasked(ctx, action, params), []);',
      },
    ],
    kills: [
      `${PAGE} › fills a field of the secret’s origin, and no later answer of the page shows the value`,
    ],
  },
  {
    id: 'secret-origin-checked',
    protects: "a secret is filled only into a field whose frame is of the secret's origin",
    build: true,
    edits: [
      {
        file: 'packages/page/src/actions/fill-secret.ts',
        find: '  if (frame === expected && field === expected) return;',
        replace: '  if (frame !== undefined) return;',
      },
    ],
    kills: [
      `${PAGE} › refuses a field of another origin before writing anything`,
      `${SUITE} › refuses the secret on a look-alike origin (another port) and in a cross-origin frame of the bank’s page, and an unknown name`,
      `${SUITE} › fills it through MCP by name: the reply and the next snapshot never show it, a look-alike is refused`,
    ],
    run: BOTH_DRIVERS,
  },
  {
    id: 'secret-fill-reaches-site',
    protects: 'the daemon hands the driver the secret’s value, which the right site receives',
    build: true,
    edits: [
      {
        file: 'packages/daemon/src/actions/secret-fill.ts',
        find: '  return { params: { ...rest, value: found.value, secretOrigin: found.origin } };',
        replace: "  return { params: { ...rest, value: '', secretOrigin: found.origin } };",
      },
    ],
    kills: [
      `${SUITE} › fills a secret by name into the bank’s form: the bank receives it, the answers and the next snapshot never show it`,
    ],
    run: BOTH_DRIVERS,
  },
  {
    id: 'secret-no-output',
    protects: 'no output of a run — CLI, MCP, the files of BPROXY_HOME and the debug log — holds the value',
    build: true,
    edits: [
      {
        file: 'packages/daemon/src/actions/secret-fill.ts',
        find: '  return maskSecrets(outcome, secrets.used);',
        replace: '  return maskSecrets(outcome, []);',
      },
      {
        file: 'packages/page/src/dispatch.ts',
        find: '  return maskSecrets(await runUnmasked(ctx, action, params), ctx.secrets);',
        replace: '  return maskSecrets(await runUnmasked(ctx, action, params), []);',
      },
    ],
    kills: [
      `${SUITE} › leaves the value in no output of the run: CLI, MCP, nor any file under BPROXY_HOME (the debug log included)`,
    ],
    run: BOTH_DRIVERS,
  },
];
