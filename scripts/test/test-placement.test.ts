/**
 * The test rule (README, "Test") holds for the tree: package test folders mirror src/, a test named
 * after a module sits beside that module's mirror, and the tests that start Chromium — and only those
 * — are named *.browser.test.ts (the `browser` vitest project; `unit` runs without a browser).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkPlacement } from '../test-placement.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** One folder up, in the made-up tree's imports (from its packages/p/test to its root). */
const UP = '../';

describe('where tests go', () => {
  const problems = checkPlacement(ROOT);

  it('holds for every package test', () => {
    expect(problems).toEqual([]);
  });
});

describe('the placement check', () => {
  const root = mkdtempSync(join(tmpdir(), 'bproxy-placement-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (path: string, text = ''): void => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write('packages/p/src/index.ts');
  write('packages/p/src/relay/relay.ts');
  write('packages/p/src/relay/queue.ts');
  write('tests/kit/chromium.ts', 'export function chromiumPath() {}\nexport function removeProfile() {}');
  write(
    'packages/p/test/helpers/browser.ts',
    `import { chromiumPath } from '${UP.repeat(4)}tests/kit/chromium';`,
  );
  write('packages/p/test/helpers/only-types.ts', "import type { Page } from 'playwright-core';");
  write('packages/p/test/relay/relay.test.ts', "import { relay } from '../../src/relay/relay';");
  write('packages/p/test/index.test.ts');
  write('packages/p/test/queue.test.ts');
  write('packages/p/test/nowhere/thing.test.ts');
  write('packages/p/test/direct.test.ts', "import { chromium } from 'playwright-core';");
  write('packages/p/test/through-helper.test.ts', "import { x } from './helpers/browser';");
  write('packages/p/test/env.test.ts', 'const exe = process.env.CHROME_PATH;');
  write('packages/p/test/types.test.ts', "import './helpers/only-types';");
  write(
    'packages/p/test/cleanup.test.ts',
    `import { removeProfile } from '${UP.repeat(3)}tests/kit/chromium';\nconst e = { CHROME_PATH: 'x' };`,
  );
  write('packages/p/test/named.browser.test.ts', "import { relay } from '../src/relay/relay';");
  write('packages/p/test/relay/launch.browser.test.ts', "import '../helpers/browser';");
  write('tests/kit/headed.ts', 'export function launchHeaded() {}\nexport type HeadedMachine = object;');
  write('tests/headed/panel.test.ts', "import { launchHeaded } from '../kit/headed';");
  write('tests/headed/types-only.test.ts', "import type { HeadedMachine } from '../kit/headed';");
  write('tests/e2e/sneaky.test.ts', "import { h } from './helper';");
  write('tests/e2e/helper.ts', "import { launchHeaded as h } from '../kit/headed';");
  const found = checkPlacement(root);
  const about = (file: string): string[] => found.filter((p) => p.startsWith(`packages/p/test/${file}: `));

  it('refuses a test folder with no src folder to mirror, and sends a module’s test to its folder', () => {
    expect(found).toContain('packages/p/test/nowhere/: no src/nowhere/ for it to mirror');
    expect(about('queue.test.ts')).toEqual([
      'packages/p/test/queue.test.ts: named after src/relay/queue, so it goes in test/relay/',
    ]);
    expect(about('relay/relay.test.ts')).toEqual([]);
    expect(about('index.test.ts')).toEqual([]);
    expect(found.some((p) => p.startsWith('packages/p/test/helpers'))).toBe(false);
  });

  it('wants *.browser.test.ts for a test that starts Chromium itself, through a helper or by CHROME_PATH', () => {
    expect(about('direct.test.ts')).toEqual([
      'packages/p/test/direct.test.ts: starts Chromium (packages/p/test/direct.test.ts imports playwright-core), so it is named *.browser.test.ts',
    ]);
    expect(about('through-helper.test.ts')[0]).toContain('uses chromiumPath of tests/kit');
    expect(about('env.test.ts')[0]).toContain('reads CHROME_PATH');
    expect(about('relay/launch.browser.test.ts')).toEqual([]);
  });

  it('keeps the headed kit to tests/headed/, and tests/headed/ to tests that open a headed browser', () => {
    expect(found.filter((p) => p.startsWith('tests/'))).toEqual([
      'tests/e2e/sneaky.test.ts: opens a headed browser (tests/e2e/helper.ts uses launchHeaded of tests/kit), so it goes in tests/headed/',
      'tests/headed/types-only.test.ts: in tests/headed/ but opens no headed browser (tests/kit/headed.ts)',
    ]);
  });

  it('lets types, cleanup helpers and a CHROME_PATH key be, and refuses the browser name on a test without a browser', () => {
    expect(about('types.test.ts')).toEqual([]);
    expect(about('cleanup.test.ts')).toEqual([]);
    expect(about('named.browser.test.ts')).toEqual([
      'packages/p/test/named.browser.test.ts: named *.browser.test.ts but starts no Chromium',
    ]);
  });
});
