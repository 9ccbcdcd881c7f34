import { configDefaults, defineConfig } from 'vitest/config';

// Where a test goes (README, "Test"; scripts/test/test-placement.test.ts checks it):
// - packages/<pkg>/test: subfolders mirror src/ folders (test/relay/ holds the tests of src/relay/, and
//   that src folder exists; test/helpers/ and test/fixtures/ hold what tests share). Inside a folder a
//   test is named after the module it tests (relay.test.ts for relay.ts) or, when it proves a behaviour
//   across modules, after that behaviour (browser-lifetime.test.ts).
// - A package test that starts Chromium is named *.browser.test.ts and runs in the `browser` project;
//   `unit` (with the repository scripts' own tests in scripts/test) runs without a browser.
// - tests/e2e: what crosses packages as a user meets it, on the shared kit of tests/kit (Chromium's
//   flags and launch, a scripted daemon, a faulty extension, suites run on both drivers); needs
//   `npm run build` first.
// - tests/headed: the extension's real popup and side panel, in a headed Chromium on a virtual screen
//   the test starts (tests/kit/headed.ts, tests/kit/xvfb.ts); only these tests use that kit, and these
//   use it (scripts/test-placement.mjs). Needs `npm run build` and Xvfb.
// Every project has a hard timeout per test and per hook.
const BROWSER_TESTS = 'packages/*/test/**/*.browser.test.ts';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/test/**/*.test.ts', 'scripts/test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, BROWSER_TESTS],
          testTimeout: 20_000,
          hookTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'browser',
          include: [BROWSER_TESTS],
          testTimeout: 60_000,
          hookTimeout: 60_000,
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
      {
        test: {
          name: 'headed',
          include: ['tests/headed/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
