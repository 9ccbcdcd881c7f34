import { defineConfig } from 'vitest/config';

// Tiers (see CONTRIBUTING in the README): unit and daemon tests live next to their package in
// packages/*/test (the repository scripts' own in scripts/test); end-to-end tests with real browsers live in tests/e2e and need `npm run build` first.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/test/**/*.test.ts', 'scripts/test/**/*.test.ts'],
          testTimeout: 20_000,
          hookTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 90_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
