/**
 * BPROXY_HOME/files.json: the folders a person lets agents upload files from, besides each session's
 * own (`{ "allow": ["/home/me/for-agents"] }`). Read once when the daemon starts, with the checks of
 * every state file (no symlink, the user's own, not open to group or others); content outside the
 * format, or a folder that is not absolute, stops the start rather than being guessed around.
 */
import { isAbsolute } from 'node:path';
import { FilesConfigSchema } from '@bproxy/protocol';
import { LifecycleError } from './errors';
import type { StatePaths } from './paths';
import { readStateJson } from './secure-file';

/** The folders files.json allows; [] when there is none. */
export function readFilesConfig(paths: StatePaths): readonly string[] {
  const file = readStateJson(paths.files, FilesConfigSchema);
  if (file === null) return [];
  if (file === 'invalid' || !file.allow.every((dir) => isAbsolute(dir)))
    throw new LifecycleError(
      'unsafe-state',
      `refusing to use ${paths.files}: it is not {"allow": ["/absolute/folder", ...]}; fix it or remove it`,
    );
  return file.allow;
}
