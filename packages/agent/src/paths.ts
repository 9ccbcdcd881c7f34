/**
 * The agent's corner of BPROXY_HOME: `agent/config.json` (provider, models, tool switches),
 * `agent/keys.json` (provider keys, 0600 and checked like the daemon's secret files), `agent/chats/`
 * (one transcript per chat), `agent/files/` (the scratch-file sandbox) and `agent/notes.json`.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export interface AgentPaths {
  readonly dir: string;
  readonly config: string;
  readonly keys: string;
  readonly chats: string;
  readonly files: string;
  readonly notes: string;
}

export function agentPaths(home: string): AgentPaths {
  const dir = join(home, 'agent');
  return {
    dir,
    config: join(dir, 'config.json'),
    keys: join(dir, 'keys.json'),
    chats: join(dir, 'chats'),
    files: join(dir, 'files'),
    notes: join(dir, 'notes.json'),
  };
}

/** Creates the agent's folders, 0700 like the state directory around them. */
export function ensureAgentDirs(paths: AgentPaths): void {
  for (const dir of [paths.dir, paths.chats, paths.files]) mkdirSync(dir, { recursive: true, mode: 0o700 });
}
