/**
 * Where the page bundle's source comes from at run time. A bundled daemon embeds it at build time
 * (esbuild `define: { __BPROXY_PAGE_BUNDLE__: JSON.stringify(source) }`), because the bundled file no
 * longer sits next to packages/page; from source (tests, tsx) it is read from @bproxy/page's dist.
 */
import { readFile } from 'node:fs/promises';
import { pageBundleUrl } from '@bproxy/page';

declare const __BPROXY_PAGE_BUNDLE__: string | undefined;

export async function loadPageBundle(): Promise<string> {
  if (typeof __BPROXY_PAGE_BUNDLE__ === 'string') return __BPROXY_PAGE_BUNDLE__;
  const url = pageBundleUrl();
  try {
    return await readFile(url, 'utf8');
  } catch {
    throw new Error(`the page bundle is missing at ${url.pathname}: run \`npm run build\` first`);
  }
}
