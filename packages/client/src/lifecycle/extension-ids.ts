/**
 * The extension ids bproxy trusts, one setting for the daemon, the native host and the CLI:
 * the development id (derived from the key in packages/extension/manifest.json), the store id once
 * published, and the ids in BPROXY_HOME/extensions.json (`{ "ids": [...] }`, 0600 in the 0700 home),
 * which `bproxy setup|host install --extension-id ID` adds to. The file is read with the checks of
 * every state file: a symlink, a file of another user or one open to group or others is refused
 * (LifecycleError 'unsafe-state'), and so is content outside the format — never guessed around.
 */
import { lstatSync, mkdirSync } from 'node:fs';
import {
  DEFAULT_EXTENSION_ID,
  ExtensionIdSchema,
  ExtensionsFileSchema,
  STORE_EXTENSION_ID,
} from '@bproxy/protocol';
import { LifecycleError, errnoCode, isLifecycleError } from './errors';
import type { StatePaths } from './paths';
import { readStateJson, writeStateFileAtomic } from './secure-file';
import { checkStateHome } from './state-home';

/** The ids trusted whatever extensions.json says. */
export function builtInExtensionIds(): readonly string[] {
  return STORE_EXTENSION_ID === null ? [DEFAULT_EXTENSION_ID] : [DEFAULT_EXTENSION_ID, STORE_EXTENSION_ID];
}

/** Checks a Chrome extension id given by a person (`--extension-id`); the message says what is accepted. */
export function checkExtensionId(raw: string): string {
  if (!ExtensionIdSchema.safeParse(raw).success)
    throw new LifecycleError(
      'config',
      `the extension id must be a Chrome extension id (32 letters a-p, as chrome://extensions shows it), got "${raw.slice(0, 80)}"`,
    );
  return raw;
}

/** The ids listed in extensions.json; [] when there is none. Throws LifecycleError when it is unsafe or malformed. */
export function readExtensionsFile(paths: StatePaths): readonly string[] {
  const file = readStateJson(paths.extensions, ExtensionsFileSchema);
  if (file === null) return [];
  if (file === 'invalid')
    throw new LifecycleError(
      'unsafe-state',
      `refusing to use ${paths.extensions}: it is not {"ids": ["<32 letters a-p>", ...]}; fix it, or remove it and add ids again with \`bproxy host install --extension-id ID\``,
    );
  return file.ids;
}

/** Every trusted id, built-in ones first, each once. */
export function trustedExtensionIds(paths: StatePaths): readonly string[] {
  return [...new Set([...builtInExtensionIds(), ...readExtensionsFile(paths)])];
}

/** The Origin header a trusted extension sends (no trailing slash). */
export function extensionOriginOf(id: string): string {
  return `chrome-extension://${id}`;
}

/**
 * Adds `id` to extensions.json (creating the home 0700 and the file 0600 when missing); a built-in id
 * or one already listed changes nothing. Answers whether the file changed.
 */
export function addTrustedExtensionId(paths: StatePaths, id: string): boolean {
  checkExtensionId(id);
  if (!checkStateHome(paths.home)) mkdirSync(paths.home, { recursive: true, mode: 0o700 });
  const listed = readExtensionsFile(paths);
  if (builtInExtensionIds().includes(id) || listed.includes(id)) return false;
  writeStateFileAtomic(paths.extensions, `${JSON.stringify({ ids: [...listed, id] }, null, 2)}\n`);
  return true;
}

/**
 * What changes when extensions.json is written, replaced, removed, or its mode or owner changes: one
 * lstat, cheap enough to take at every gate decision.
 */
export function extensionsFileStamp(paths: StatePaths): string {
  try {
    const s = lstatSync(paths.extensions, { bigint: true });
    return [s.dev, s.ino, s.size, s.mtimeNs, s.ctimeNs, s.mode, s.uid].join(':');
  } catch (error) {
    return `absent:${errnoCode(error) ?? 'unknown'}`;
  }
}

/**
 * The trusted ids as a running daemon keeps them: `initial` (read when it started, at `since`, the
 * file's stamp taken before that read) until extensions.json changes, then read again with every
 * check — so `bproxy host install --extension-id ID` reaches a daemon that is already running. A file
 * that became unsafe or malformed trusts no extension at all, the built-in ones included, until it is
 * fixed (fail closed: whoever could write it could have named their own extension); `onChange` hears
 * each new set, or the problem.
 */
export function liveTrustedExtensionIds(
  paths: StatePaths,
  initial: readonly string[],
  since: string,
  onChange?: (ids: readonly string[], problem: string | null) => void,
): () => readonly string[] {
  let stamp = since;
  let ids = initial;
  return () => {
    const now = extensionsFileStamp(paths);
    if (now === stamp) return ids;
    stamp = now;
    try {
      ids = trustedExtensionIds(paths);
      onChange?.(ids, null);
    } catch (error) {
      ids = [];
      onChange?.([], isLifecycleError(error) ? error.message : String(error));
    }
    return ids;
  };
}
