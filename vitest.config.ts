import { defineConfig } from 'vitest/config';

// Where a test goes (README, "Test"): unit and integration tests of one package live in
// packages/*/test, mirroring src/ (the repository scripts' own in scripts/test); end-to-end tests
// across packages live in tests/e2e and need `npm run build` first.
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
