/**
 * The extension's rooms as eslint.config.js enforces them: the import rule that applies to a file in
 * each room (as ESLint resolves the whole config for it, so a later block that replaced the rule would
 * show here), run on imports that room may and may not make — type-only imports included.
 */
import { ESLint, Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;

/** The messages the repository's import rule gives for `source`, as if it were `file`. */
async function refusals(file: string, source: string): Promise<string[]> {
  const config = (await new ESLint({ cwd: root }).calculateConfigForFile(file)) as {
    rules: Record<string, Linter.RuleEntry>;
  };
  const rule = config.rules['no-restricted-imports'];
  expect(rule, file).toBeDefined();
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(
    source,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser as Linter.Parser },
        rules: { 'no-restricted-imports': rule as Linter.RuleEntry },
      },
    ],
    file,
  );
  return messages.map((m) => m.message);
}

const imports = (...specifiers: string[]) =>
  specifiers.map((s, i) => `import type { T${i} } from '${s}';`).join('\n');

describe("the extension's rooms", () => {
  it('keep the driver off the daemon link and the host link, type-only imports included', async () => {
    const file = 'packages/extension/src/background/driver/any-action.ts';
    for (const link of ['../daemon/connection', '../host/native-host', '../../background/host/panel-relay']) {
      expect(await refusals(file, imports(link)), link).toEqual([expect.stringMatching(/the driver/)]);
    }
    expect(
      await refusals(file, imports('./context', '../log', '../../common/messages', '@bproxy/driver')),
    ).toEqual([]);
  });

  it('keep the daemon link off the host link, which may build on it', async () => {
    expect(
      await refusals('packages/extension/src/background/daemon/any.ts', imports('../host/native-host')),
    ).toEqual([expect.stringMatching(/the daemon link/)]);
    expect(
      await refusals(
        'packages/extension/src/background/host/any.ts',
        imports('../daemon/connection', '../driver/errors'),
      ),
    ).toEqual([]);
  });

  it('let the panel and the popup import src/common only, and src/common none of the rooms', async () => {
    for (const file of ['packages/extension/src/panel/any.ts', 'packages/extension/src/popup/any.ts']) {
      for (const outside of ['../background/log', '../background/daemon/connection', '../chrome-api']) {
        expect(await refusals(file, imports(outside)), `${file} ← ${outside}`).toEqual([
          expect.stringMatching(/src\/common/),
        ]);
      }
      expect(await refusals(file, imports('../common/messages', './view'))).toEqual([]);
    }
    expect(
      await refusals('packages/extension/src/common/any.ts', imports('../background/daemon/connection')),
    ).toEqual([expect.stringMatching(/src\/common is shared/)]);
  });
});
