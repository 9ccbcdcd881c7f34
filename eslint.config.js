import tseslint from 'typescript-eslint';

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
    // The wire contract runs in a service worker too: no Node built-ins.
    files: ['packages/protocol/src/**/*.ts', 'packages/page/src/**/*.ts', 'packages/extension/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['node:*'], message: 'no Node built-ins in browser code' }] },
      ],
    },
  },
  {
    // The protocol package may import zod alone.
    files: ['packages/protocol/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'ws', message: 'the protocol package imports zod only' }],
          patterns: [
            { group: ['node:*', '@bproxy/*', 'fastify*'], message: 'the protocol package imports zod only' },
          ],
        },
      ],
    },
  },
  {
    // The bridge relays CDP: of our packages it may use the protocol and the CDP package's lower half.
    files: ['packages/bridge/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: '@bproxy/cdp', message: 'the bridge imports the lower half only: @bproxy/cdp/wire' },
          ],
          patterns: [
            {
              group: [
                '@bproxy/*',
                '!@bproxy/cdp',
                '!@bproxy/cdp/wire',
                '!@bproxy/protocol',
                '!@bproxy/protocol/plain',
              ],
              message: 'the bridge may import @bproxy/protocol and @bproxy/cdp/wire only',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
