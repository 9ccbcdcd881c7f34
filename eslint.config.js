import tseslint from 'typescript-eslint';

/**
 * What each package's source may import (the architecture's "may import" column): workspace packages
 * and their subpaths, third-party packages, and whether Node built-ins are allowed. Anything else is a
 * lint error, and so is a relative path into another package's folders.
 */
const PACKAGES = {
  protocol: { imports: ['zod'], node: false },
  page: { imports: ['@bproxy/protocol'], node: false },
  driver: { imports: ['@bproxy/protocol', '@bproxy/page'], node: false },
  tools: { imports: ['@bproxy/protocol'], node: false },
  client: { imports: ['@bproxy/protocol'], node: true },
  extension: {
    imports: [
      '@bproxy/protocol',
      '@bproxy/page',
      '@bproxy/driver',
      'zod',
      '@xterm/xterm',
      '@xterm/addon-fit',
    ],
    node: false,
  },
  cdp: { imports: ['@bproxy/protocol', '@bproxy/page', '@bproxy/driver', 'ws'], node: true },
  daemon: {
    // The lifecycle contract (state files, lock, argv, start report) is shared with the client.
    imports: [
      '@bproxy/protocol',
      '@bproxy/client/lifecycle',
      '@bproxy/cdp',
      'fastify',
      '@fastify/websocket',
      'ws',
      'pino',
      'sonic-boom',
    ],
    node: true,
  },
  mcp: {
    imports: ['@bproxy/protocol', '@bproxy/client', '@bproxy/tools', '@modelcontextprotocol/sdk'],
    node: true,
  },
  // The bridge relays CDP: of the CDP package it may use the lower half (transports, finding Chrome) only.
  bridge: { imports: ['@bproxy/protocol', '@bproxy/cdp/wire', 'ws', 'pino'], node: true },
  agent: {
    imports: [
      '@bproxy/protocol',
      '@bproxy/client',
      '@bproxy/tools',
      'zod',
      '@anthropic-ai/sdk',
      'openai',
      '@github/copilot-sdk',
    ],
    node: true,
  },
  // The agent (and node-pty) come in behind the handler factories, loaded on first use.
  'native-host': {
    imports: ['@bproxy/protocol', '@bproxy/client', '@bproxy/agent', '@lydell/node-pty'],
    node: true,
  },
  // `bproxy mcp` and `bproxy agent` load their packages lazily, from their own bundles (src/mcp,
  // src/agent); `bproxy host` loads the native host's registration the same way.
  cli: {
    imports: [
      '@bproxy/protocol',
      '@bproxy/client',
      '@bproxy/mcp',
      '@bproxy/agent',
      '@bproxy/native-host/registration',
      // The untrusted-data fence and the page-text fields alone, without the tool catalogue.
      '@bproxy/tools/untrusted',
      'commander',
    ],
    node: true,
  },
};

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** A regex matching every bare specifier outside `allowed` (each with its subpaths); node: is ruled apart. */
function outside(allowed) {
  const ok = [...allowed.map((name) => `${escape(name)}(?:/|$)`), 'node:'];
  return `^(?!\\.|${ok.join('|')})`;
}

const intoAnotherPackage = {
  regex: `^(?:\\.\\./)+(?:packages/)?(?:${Object.keys(PACKAGES).join('|')})/(?:src|test|dist)(?:/|$)`,
  message: 'a package never reaches into another one by path: import its package entry',
};

function packagePatterns(name, { imports, node }) {
  const allowed = [`@bproxy/${name}`, ...imports];
  return [
    {
      regex: outside(allowed),
      message: `packages/${name} may import ${imports.join(', ')}${node ? ' and node: built-ins' : ''} only (see the package table in eslint.config.js)`,
    },
    ...(node ? [] : [{ regex: '^node:', message: 'no Node built-ins in code that runs in a browser' }]),
    intoAnotherPackage,
  ];
}

function boundaries(name, rules) {
  return {
    files: [`packages/${name}/src/**/*.ts`],
    rules: { 'no-restricted-imports': ['error', { patterns: packagePatterns(name, rules) }] },
  };
}

/**
 * The rooms inside the extension (its README's "How it works"). The service worker's driver runs
 * actions and knows neither link that feeds it; the daemon link knows nothing of the host link, which
 * builds on it; the shared folder (src/common) knows none of the extension's parts; the panel and the
 * popup reach the worker by messages only, so of the extension's own code they import src/common alone.
 * Type-only imports count too.
 */
const EXTENSION_ROOMS = [
  {
    files: ['packages/extension/src/background/driver/**/*.ts'],
    regex: '^(?:\\.\\./)+(?:background/)?(?:daemon|host|worker|index)(?:/|$)',
    message: 'the driver (background/driver) imports neither the daemon link nor the host link',
  },
  {
    files: ['packages/extension/src/background/daemon/**/*.ts'],
    regex: '^(?:\\.\\./)+(?:background/)?(?:host|worker|index)(?:/|$)',
    message:
      'the daemon link (background/daemon) imports nothing of the host link: the host link builds on it',
  },
  {
    files: ['packages/extension/src/common/**/*.ts'],
    regex: '^\\.\\./',
    message: 'src/common is shared by the worker, the panel and the popup: it imports none of them',
  },
  {
    files: ['packages/extension/src/panel/**/*.ts', 'packages/extension/src/popup/**/*.ts'],
    regex: '^\\.\\./(?!common/)',
    message:
      'the panel and the popup import only src/common of the extension: they reach the worker by messages',
  },
];

function extensionRooms() {
  const base = packagePatterns('extension', PACKAGES.extension);
  return EXTENSION_ROOMS.map(({ files, regex, message }) => ({
    files,
    rules: { 'no-restricted-imports': ['error', { patterns: [...base, { regex, message }] }] },
  }));
}

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'coverage/**', '.tmp/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/ban-ts-comment': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Type-aware rules: what tests miss. A promise nobody awaits or catches fails silently; a switch
    // over a union (action names, tool names) that forgets a member answers nothing for it.
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
      ],
    },
  },
  ...Object.entries(PACKAGES).map(([name, rules]) => boundaries(name, rules)),
  ...extensionRooms(),
  {
    // Tests and tools of a package may import more than its source, but never another's internals.
    files: ['packages/*/test/**/*.ts', 'packages/*/*.mjs'],
    rules: { 'no-restricted-imports': ['error', { patterns: [intoAnotherPackage] }] },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
