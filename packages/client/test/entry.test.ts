/**
 * What a program pays for importing the client: its root entry must stay free of zod (and of any
 * command-line code), because a compiled CLI's action path loads it on every run.
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

describe('the client entry', () => {
  it('bundles without zod or commander: the action path loads no schemas', async () => {
    const result = await build({
      entryPoints: [fileURLToPath(new URL('../src/index.ts', import.meta.url))],
      bundle: true,
      platform: 'node',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((path) => /node_modules\/(zod|commander)\//.test(path))).toEqual([]);
    expect(inputs.some((path) => path.endsWith('client/src/daemon-client.ts'))).toBe(true);
  });
});
