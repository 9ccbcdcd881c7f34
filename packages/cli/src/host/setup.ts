/**
 * `bproxy setup`: the one command a user runs once. In a source checkout it builds what is missing
 * (the host and daemon bundles beside this CLI, the unpacked extension); then it registers the native
 * host with every browser found, runs the host once as a browser would to prove it answers, and says
 * where to load the extension from and what happens next. JSON by default; --pretty for people.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { NATIVE_HOST_NAME } from '@bproxy/protocol';
import {
  hostStatus,
  installHost,
  type InstallReport,
  type ProbeResult,
} from '@bproxy/native-host/registration';
import type { RegistrationFlags } from '../commands/host';
import { CliError, EXIT } from '../cli-error';
import { printJson, writeText } from '../output';
import { besideCli } from '../runtime';
import { findExtensionFolder } from './extension-folder';
import { asCliError, context, installOptions, launcherNode } from './host-commands';

interface Checkout {
  readonly root: string;
  readonly extension: string;
}

/** The repository this CLI was built in, when it runs from one (not from a copied binary). */
function sourceCheckout(): Checkout | null {
  const dist = dirname(besideCli('bproxy.mjs'));
  const root = join(dist, '..', '..', '..');
  if (
    !existsSync(join(root, 'scripts', 'build.mjs')) ||
    !existsSync(join(root, 'packages', 'extension', 'build.mjs'))
  )
    return null;
  return { root, extension: join(root, 'packages', 'extension', 'dist', 'unpacked') };
}

/** Builds when a bundle or the extension is missing; answers whether it built. */
function buildIfNeeded(checkout: Checkout | null): boolean {
  const missing = [besideCli('native-host.mjs'), besideCli('daemon.mjs')].filter((file) => !existsSync(file));
  if (checkout !== null && !existsSync(join(checkout.extension, 'manifest.json')))
    missing.push(checkout.extension);
  if (missing.length === 0) return false;
  if (checkout === null)
    throw new CliError(
      'LOCAL_ERROR',
      `missing beside this CLI: ${missing.join(', ')}`,
      EXIT.failure,
      'Reinstall bproxy',
    );
  // The build's progress goes to stderr: stdout carries this command's result only.
  const build = spawnSync(launcherNode(), [join(checkout.root, 'scripts', 'build.mjs')], {
    cwd: checkout.root,
    stdio: ['ignore', 2, 2],
  });
  if (build.status !== 0)
    throw new CliError(
      'LOCAL_ERROR',
      'the build failed (its output is above)',
      EXIT.failure,
      'Run `npm run build`',
    );
  return true;
}

function nextSteps(install: InstallReport, extension: string | null, answers: ProbeResult | null): string[] {
  if (install.registered.length === 0)
    return [
      'No Chromium-family browser was found for this user. Install or run one once, then run `bproxy setup` again,',
      'or name it: `bproxy host install --browser chrome` (see `bproxy host install --help` for the names).',
    ];
  const steps = [
    'Open chrome://extensions (edge://extensions in Edge, brave://extensions in Brave) and turn on Developer mode.',
    extension === null
      ? 'Click "Load unpacked" and choose the bproxy extension folder: it is missing from this installation (reinstall bproxy; in a clone, `npm run build`).'
      : `Click "Load unpacked" and choose ${extension}`,
    'The extension asks the native host for the daemon (started when none runs) and pairs itself: no code to type.',
    'Fallback: `bproxy pair` prints a code and port to type into the extension popup.',
  ];
  if (install.addedExtensionId !== null)
    steps.push(
      `Extension id ${install.addedExtensionId} is now trusted (BPROXY_HOME/extensions.json); a daemon already running accepts it from its next request.`,
    );
  if (answers !== null && !answers.ok)
    steps.unshift(
      `The host did not answer when run as the browser runs it (${answers.reason}); see \`bproxy host status\`.`,
    );
  return steps;
}

function prettyText(
  install: InstallReport,
  answers: ProbeResult | null,
  extension: string | null,
  next: string[],
): string {
  const lines = [`Native host ${NATIVE_HOST_NAME}: launcher ${install.launcher} (runs ${install.node})`];
  for (const r of install.registered) lines.push(`  registered with ${r.name}: ${r.location}`);
  const reasons = new Map<string, string[]>();
  for (const s of install.skipped) reasons.set(s.reason, [...(reasons.get(s.reason) ?? []), s.name]);
  for (const [reason, names] of reasons) lines.push(`  skipped (${reason}): ${names.join(', ')}`);
  if (answers !== null)
    lines.push(
      answers.ok
        ? `  the host starts and answers (${answers.ms} ms)`
        : `  the host does not answer: ${answers.reason}`,
    );
  if (extension !== null) lines.push(`Extension: ${extension}`);
  lines.push('', 'Next:', ...next.map((step, i) => `  ${i + 1}. ${step}`));
  return `${lines.join('\n')}\n`;
}

export async function setup(flags: RegistrationFlags, pretty: boolean): Promise<void> {
  const checkout = sourceCheckout();
  const built = buildIfNeeded(checkout);
  const install = await asCliError(() => installHost(installOptions(flags)));
  const check =
    install.registered.length === 0
      ? null
      : await hostStatus({
          context: context(),
          browsers: install.registered.map((r) => r.browser),
          ...(install.addedExtensionId === null ? {} : { extensionId: install.addedExtensionId }),
        });
  const answers = check?.browsers.find((browser) => browser.answers !== null)?.answers ?? null;
  const extension = findExtensionFolder();
  const next = nextSteps(install, extension, answers);
  if (pretty) writeText(prettyText(install, answers, extension, next));
  else printJson({ built, host: install, answers, extension, next }, false);
  if (answers !== null && !answers.ok) process.exitCode = EXIT.failure;
}
