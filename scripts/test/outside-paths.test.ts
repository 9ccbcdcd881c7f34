import { describe, expect, it } from 'vitest';
import { findOutsidePaths, scanRepository } from '../outside-paths.mjs';

// The machine paths are assembled here so that this file does not name them itself.
const shared = ['', 'work', 'shared', 'site-captures'].join('/');
const home = ['', 'home', 'alice', 'pages'].join('/');
const macHome = ['', 'Users', 'bob', 'src', 'x.html'].join('/');
const rootHome = ['', 'root', 'pages'].join('/');
const windowsHome = ['C:', 'Users', 'carol', 'pages'].join('\\');
// Climbing paths too: written literally, the deeper ones would climb out of this very file.
const up = (n: number) => '../'.repeat(n);
const UP = '..';

const texts = (file: string, text: string) => findOutsidePaths(file, text).map((f) => f.text);

describe('outside-path check', () => {
  it('refuses absolute paths of one machine: the shared folder and home directories', () => {
    expect(texts('bench/peers.ts', `const PAGES = '${shared}';`)).toEqual([shared]);
    expect(texts('README.md', `Pages are in ${shared}, served locally.`)).toEqual([shared]);
    expect(texts('docs/a.md', `see ${home} and ${macHome}`)).toEqual([home, macHome]);
    expect(texts('a.ts', `'${rootHome}'`)).toEqual([rootHome]);
    expect(texts('a.ts', `"${windowsHome.replaceAll('\\', '\\\\')}"`)).toHaveLength(1);
  });

  it('refuses a relative path that climbs above the repository from the file it is in', () => {
    expect(texts('README.md', `pages in \`${up(1)}shared/site-captures\``)).toEqual([
      `${up(1)}shared/site-captures`,
    ]);
    expect(texts('packages/page/test/h.ts', `'${up(4)}shared/x'`)).toEqual([`${up(4)}shared/x`]);
    expect(findOutsidePaths('README.md', 'line one\n[x](../sibling/README.md)')[0]).toMatchObject({
      line: 2,
      why: 'a relative path above the repository',
    });
  });

  it('refuses path.join climbing above the root, counted from a base named like the root', () => {
    expect(texts('bench/c.ts', `join(ROOT, '${UP}', 'shared', 'site-captures')`)).toEqual([
      `join(ROOT, '${UP}', 'shared', 'site-captures'`,
    ]);
    expect(texts('bench/c.ts', `resolve(root, '${up(1)}shared')`)).toHaveLength(1);
    expect(texts('a/b.ts', "join(here, '..', '..', 'x')")).toHaveLength(1);
  });

  it('accepts paths that stay inside the repository, URLs and system locations', () => {
    const inside = [
      "import { x } from '../common/messages';", // packages/extension/src/common
      "join(here, '..', 'page', 'dist', 'page.js')",
      "join(dirname(fileURLToPath(import.meta.url)), '..', '..')",
      `const FIXTURES = join(here, '${up(3)}tests/fixtures/pages');`,
      'BPROXY_HOME (default ~/.bproxy), ~/.cursor/mcp.json',
      "chromeCandidates('darwin', { HOME: '/Users/u' })",
      '"env": { "BPROXY_BRIDGE_USER_DATA_DIR": "/home/me/.cache/bridge-profile" }',
      "parse('--user-data-dir=C:\\\\Users\\\\Me\\\\Profile')",
      "'/home/tester/.config/google-chrome'",
      "'/usr/lib/chromium/chromium', 'https://github.com/x/home/a/b', 'http://127.0.0.1/root/x'",
      'fetch(`${origin}/bench/../../etc/passwd`)',
    ].join('\n');
    expect(findOutsidePaths('packages/extension/src/background/worker.ts', inside)).toEqual([]);
  });

  it('finds nothing in the files git tracks', () => {
    expect(scanRepository()).toEqual([]);
  });
});
