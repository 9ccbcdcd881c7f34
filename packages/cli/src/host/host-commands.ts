/**
 * `bproxy host install|uninstall|status`: the registration of @bproxy/native-host, with the launcher
 * running the host bundle shipped beside this CLI (dist/native-host.mjs) on an absolute Node binary —
 * this very Node, or for the compiled binary (which has none inside) $BPROXY_NODE or `node` found on
 * PATH now, at install time, because browsers start hosts with a minimal PATH.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import {
  RegistrationError,
  hostStatus,
  installHost,
  registrationContext,
  uninstallHost,
  type RegistrationContext,
} from '@bproxy/native-host/registration';
import type { RegistrationFlags } from '../commands/host';
import { CliError, EXIT, usageError } from '../cli-error';
import { printJson } from '../output';
import { IS_BUN, besideCli } from '../runtime';

/** The Node binary the launcher runs, as an absolute path. */
export function launcherNode(env: NodeJS.ProcessEnv = process.env): string {
  if (!IS_BUN) return process.execPath;
  const chosen = env.BPROXY_NODE;
  if (chosen !== undefined && chosen !== '') {
    if (!isAbsolute(chosen)) throw usageError(`BPROXY_NODE must be an absolute path, got "${chosen}"`);
    return chosen;
  }
  const names = process.platform === 'win32' ? ['node.exe'] : ['node'];
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    for (const name of names) {
      const candidate = join(dir, name);
      try {
        accessSync(candidate, constants.X_OK);
        if (isAbsolute(candidate)) return candidate;
      } catch {
        // not here
      }
    }
  }
  throw new CliError(
    'LOCAL_ERROR',
    'the native host runs on Node.js, and none was found on PATH',
    EXIT.failure,
    'Install Node.js >= 20, or set BPROXY_NODE to the absolute path of its binary',
  );
}

/** Registration failures as the CLI reports them: a wrong name is a usage error, the rest failures. */
export async function asCliError<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof RegistrationError)
      throw error.usage
        ? usageError(error.message)
        : new CliError(error.unsafeState ? 'UNSAFE_STATE_FILE' : 'LOCAL_ERROR', error.message, EXIT.failure);
    throw error;
  }
}

export function context(): RegistrationContext {
  return registrationContext();
}

export function installOptions(flags: RegistrationFlags) {
  return {
    context: context(),
    node: launcherNode(),
    bundle: besideCli('native-host.mjs'),
    browsers: flags.browser,
    ...(flags.extensionId === undefined ? {} : { extensionId: flags.extensionId }),
    ...(flags.terminalCommand === undefined ? {} : { terminalCommand: flags.terminalCommand }),
  };
}

export async function hostInstall(flags: RegistrationFlags, pretty: boolean): Promise<void> {
  printJson(await asCliError(() => installHost(installOptions(flags))), pretty);
}

export async function hostUninstall(flags: { browser: string[] }, pretty: boolean): Promise<void> {
  printJson(await asCliError(() => uninstallHost({ context: context(), browsers: flags.browser })), pretty);
}

export async function hostStatusCommand(flags: RegistrationFlags, pretty: boolean): Promise<void> {
  const report = await asCliError(() =>
    hostStatus({
      context: context(),
      browsers: flags.browser,
      ...(flags.extensionId === undefined ? {} : { extensionId: flags.extensionId }),
    }),
  );
  printJson(report, pretty);
}
