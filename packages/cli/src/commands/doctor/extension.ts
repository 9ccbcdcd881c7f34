/**
 * The extension's checks: which ids are trusted (BPROXY_HOME/extensions.json, read with the checks of
 * every state file) and, with `--extension-id ID`, whether the one chrome://extensions shows is among
 * them; then, from the daemon's `debug.status`, whether an extension paired with it, is connected now,
 * and is of a version that works with the daemon. Every fix names the real id and a command that works
 * as installed.
 */
import { isLifecycleError, trustedExtensionIds } from '@bproxy/client/lifecycle';
import { BPROXY_VERSION, DEFAULT_EXTENSION_ID, versionSkew } from '@bproxy/protocol';
import { type Check, type DoctorContext, fail, ok, skip, warn } from './checks';
import type { DaemonView } from './daemon';

const LOAD_STEP =
  'load it: chrome://extensions → Developer mode → "Load unpacked" → the folder `bproxy extension path` prints (it pairs itself through the native host); or run `bproxy pair` and type the code into its popup';

function idsCheck(context: DoctorContext): Check {
  let ids: readonly string[];
  try {
    ids = trustedExtensionIds(context.paths);
  } catch (error) {
    if (!isLifecycleError(error)) throw error;
    return fail(
      'extension',
      'trusted-ids',
      `${error.message} — no extension is trusted while it is`,
      `\`chmod 600 ${context.paths.extensions}\` if only its mode is wrong; else remove it and trust your id again: \`bproxy host install --extension-id ID\``,
    );
  }
  const chosen = context.extensionId;
  if (chosen !== null && !ids.includes(chosen))
    return fail(
      'extension',
      'trusted-ids',
      `extension id ${chosen} is not trusted (trusted: ${ids.join(', ')})`,
      `\`bproxy host install --extension-id ${chosen}\` (a running daemon accepts it at once)`,
    );
  return ok(
    'extension',
    'trusted-ids',
    `${ids.map((id) => (id === DEFAULT_EXTENSION_ID ? `${id} (the bproxy extension's)` : id)).join(', ')}${chosen === null ? '' : `: ${chosen} is trusted`}`,
  );
}

export function extensionChecks(context: DoctorContext, daemon: DaemonView | null): Check[] {
  const checks = [idsCheck(context)];
  if (daemon === null) {
    for (const name of ['paired', 'connected', 'version'])
      checks.push(skip('extension', name, 'the daemon did not answer (see its checks)'));
    return checks;
  }
  if (!daemon.paired) {
    checks.push(
      fail(
        'extension',
        'paired',
        'no extension has paired with this daemon',
        `The bproxy extension: ${LOAD_STEP}`,
      ),
    );
  } else checks.push(ok('extension', 'paired', "an extension holds this daemon's pairing"));
  const connected = daemon.clients.filter((client) => client.kind === 'extension' && client.connected);
  const extension = connected[0];
  if (extension === undefined) {
    checks.push(
      daemon.paired
        ? warn(
            'extension',
            'connected',
            'no extension is connected now (its browser may be closed)',
            `open the browser where the extension is loaded; if it stays disconnected and its id (chrome://extensions) is not ${DEFAULT_EXTENSION_ID}, check it with \`bproxy doctor --extension-id ID\``,
          )
        : skip('extension', 'connected', 'no extension has paired'),
    );
    checks.push(skip('extension', 'version', 'no extension is connected'));
    return checks;
  }
  checks.push(ok('extension', 'connected', `${connected.length} connected`));
  const version = extension.version;
  if (version === undefined) {
    checks.push(skip('extension', 'version', 'the connected extension named no version'));
    return checks;
  }
  const skew = versionSkew({ part: 'extension', version }, { part: 'daemon', version: daemon.version });
  checks.push(
    skew === null
      ? ok(
          'extension',
          'version',
          `${version}, works with the daemon ${daemon.version} and this bproxy ${BPROXY_VERSION}`,
        )
      : fail(
          'extension',
          'version',
          skew.message,
          skew.old.part === 'extension'
            ? 'reload the extension in chrome://extensions (the folder `bproxy extension path` prints)'
            : '`bproxy service stop && bproxy service start`',
        ),
  );
  return checks;
}
