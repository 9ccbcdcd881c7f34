// Where a test goes (README, "Test"), checked against a tree: in packages/<pkg>/test,
// - every subfolder mirrors a folder of src/ (test/relay/ needs src/relay/); test/helpers/ and
//   test/fixtures/ hold what the tests share and mirror nothing;
// - a test named after a module (relay.test.ts) sits in the folder mirroring that module's;
// - a test that starts Chromium is named *.browser.test.ts, and one so named starts Chromium.
// "Starts Chromium" is read from the test and the test-side files it imports (relative imports,
// never into src/ or tests/kit/): a value import of playwright-core or puppeteer-core, a use of the
// kit's launch helpers (tests/kit: chromiumPath, launchChromium, startDebuggableChromium,
// launchWithExtension, launchWithNativeHost), or reading process.env.CHROME_PATH.
// And across packages/*/test and tests/: a test that opens a headed browser on a virtual screen (the
// kit's launchHeaded or startXvfb, read the same way) is in tests/headed/ — the `headed` project —, and
// every test there does.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** Folders of packages/<pkg>/test that mirror nothing. */
export const SHARED_TEST_FOLDERS = ['helpers', 'fixtures'];

/** The kit's helpers that start a browser. */
export const KIT_LAUNCHERS = [
  'chromiumPath',
  'launchChromium',
  'startDebuggableChromium',
  'launchWithExtension',
  'launchWithNativeHost',
];

/** The kit's helpers of the headed tier (tests/kit/headed.ts, tests/kit/xvfb.ts). */
export const HEADED_LAUNCHERS = ['launchHeaded', 'startXvfb'];

const SOURCE = /\.(ts|mts|mjs|js)$/;

function walk(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else out.push(path);
  }
  return out;
}

function folders(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === 'node_modules') continue;
    out.push(join(dir, entry.name));
    folders(join(dir, entry.name), out);
  }
  return out;
}

const posix = (path) => path.split(sep).join('/');

/** Relative specifiers a file imports (static, dynamic, re-exports), with whether only types come. */
function importsOf(text) {
  const found = [];
  const statement = /(?:^|\n)\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]/g;
  for (const m of text.matchAll(statement)) {
    found.push({ spec: m[4], typeOnly: m[2] !== undefined, names: m[3] });
  }
  for (const m of text.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g))
    found.push({ spec: m[1], typeOnly: false, names: '' });
  for (const m of text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g))
    found.push({ spec: m[1], typeOnly: false, names: '' });
  return found;
}

function resolveFile(from, spec) {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.mts`, `${base}.mjs`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Why a test starts Chromium (the first signal found), or undefined. */
export function chromiumSignal(root, testFile) {
  return signalOf(root, testFile, KIT_LAUNCHERS, true);
}

/** Why a test opens a headed browser on a virtual screen (the kit's headed helpers), or undefined. */
export function headedSignal(root, testFile) {
  return signalOf(root, testFile, HEADED_LAUNCHERS, false);
}

function signalOf(root, testFile, launchers, direct) {
  const seen = new Set();
  const queue = [testFile];
  const kit = join(root, 'tests', 'kit') + sep;
  while (queue.length > 0) {
    const file = queue.shift();
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    const where = posix(relative(root, file));
    if (direct && /process\.env(\.CHROME_PATH\b|\[['"]CHROME_PATH['"]\])/.test(text))
      return `${where} reads CHROME_PATH`;
    for (const { spec, typeOnly, names } of importsOf(text)) {
      if (direct && !typeOnly && /^(playwright-core|puppeteer-core)(\/|$)/.test(spec))
        return `${where} imports ${spec}`;
      if (!spec.startsWith('.')) continue;
      const target = resolveFile(file, spec);
      if (target === undefined) continue;
      if (target.startsWith(kit)) {
        const launcher = launchers.find((l) => new RegExp(`\\b${l}\\b`).test(names));
        if (!typeOnly && launcher !== undefined) return `${where} uses ${launcher} of tests/kit`;
        continue;
      }
      if (/[\\/]src[\\/]/.test(relative(root, target))) continue;
      queue.push(target);
    }
  }
  return undefined;
}

/** Every placement problem of the tests under packages/<pkg>/test, as "path: what is wrong". */
export function checkPlacement(root, { skip = [] } = {}) {
  const problems = [];
  const packages = join(root, 'packages');
  for (const pkg of readdirSync(packages).sort()) {
    const test = join(packages, pkg, 'test');
    const src = join(packages, pkg, 'src');
    if (!existsSync(test) || skip.includes(`packages/${pkg}`)) continue;
    for (const folder of folders(test)) {
      const rel = posix(relative(test, folder));
      const top = rel.split('/')[0];
      if (SHARED_TEST_FOLDERS.includes(top)) continue;
      if (!existsSync(join(src, rel)))
        problems.push(`packages/${pkg}/test/${rel}/: no src/${rel}/ for it to mirror`);
    }
    const modules = new Map();
    if (existsSync(src)) {
      for (const file of walk(src).filter((f) => SOURCE.test(f))) {
        const name = file.slice(dirname(file).length + 1).replace(SOURCE, '');
        const folder = posix(relative(src, dirname(file))) || '.';
        modules.set(name, [...(modules.get(name) ?? []), folder]);
      }
    }
    for (const file of walk(test).filter((f) => f.endsWith('.test.ts'))) {
      const rel = posix(relative(test, file));
      const top = rel.split('/')[0];
      if (rel.includes('/') && SHARED_TEST_FOLDERS.includes(top)) continue;
      const path = `packages/${pkg}/test/${rel}`;
      const folder = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '.';
      const name = rel.slice(rel.lastIndexOf('/') + 1).replace(/(\.browser)?\.test\.ts$/, '');
      const homes = modules.get(name);
      if (homes !== undefined && !homes.includes(folder))
        problems.push(
          `${path}: named after src/${homes[0] === '.' ? '' : `${homes[0]}/`}${name}, so it goes in test/${homes[0] === '.' ? '' : `${homes[0]}/`}`,
        );
      const browserNamed = file.endsWith('.browser.test.ts');
      const signal = chromiumSignal(root, file);
      if (signal !== undefined && !browserNamed)
        problems.push(`${path}: starts Chromium (${signal}), so it is named *.browser.test.ts`);
      if (signal === undefined && browserNamed)
        problems.push(`${path}: named *.browser.test.ts but starts no Chromium`);
      const headed = headedSignal(root, file);
      if (headed !== undefined)
        problems.push(`${path}: opens a headed browser (${headed}), so it goes in tests/headed/`);
    }
  }
  const tests = join(root, 'tests');
  if (existsSync(tests)) {
    for (const file of walk(tests).filter((f) => f.endsWith('.test.ts'))) {
      const path = posix(relative(root, file));
      const inHeaded = path.startsWith('tests/headed/');
      const headed = headedSignal(root, file);
      if (headed !== undefined && !inHeaded)
        problems.push(`${path}: opens a headed browser (${headed}), so it goes in tests/headed/`);
      if (headed === undefined && inHeaded)
        problems.push(`${path}: in tests/headed/ but opens no headed browser (tests/kit/headed.ts)`);
    }
  }
  return problems;
}
