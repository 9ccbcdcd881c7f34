/**
 * The agent's configuration and key files: 0600, checked like the daemon's secret files (owner, mode,
 * not a symlink), refused with a sentence that never repeats the key.
 */
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  agentPaths,
  isConfigured,
  readConfig,
  readKey,
  resolveConfig,
  writeConfigFile,
  writeKey,
  type AgentPaths,
} from '@bproxy/agent/config';

let home: string;
let paths: AgentPaths;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'bproxy-agent-config-'));
  paths = agentPaths(home);
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('agent key file', () => {
  it('stores keys in a 0600 file in a 0700 folder, one per provider', () => {
    writeKey(paths, 'anthropic', 'sk-ant-one');
    writeKey(paths, 'openai', 'sk-two');
    expect(statSync(paths.keys).mode & 0o777).toBe(0o600);
    expect(statSync(paths.dir).mode & 0o777).toBe(0o700);
    expect(readKey(paths, 'anthropic')).toBe('sk-ant-one');
    writeKey(paths, 'anthropic', null);
    expect(readKey(paths, 'anthropic')).toBeNull();
    expect(readKey(paths, 'openai')).toBe('sk-two');
  });

  it('refuses a key file readable by others, without repeating the key', () => {
    writeKey(paths, 'openai', 'sk-readable-by-all');
    chmodSync(paths.keys, 0o644);
    expect(() => readKey(paths, 'openai')).toThrow(
      expect.objectContaining({ code: 'UNSAFE_STATE_FILE', message: expect.stringMatching(/chmod 600/) }),
    );
    try {
      readKey(paths, 'openai');
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('sk-readable');
    }
  });

  it('refuses a key file that is a symbolic link, even to a safe file', () => {
    writeKey(paths, 'openai', 'sk-real');
    const elsewhere = join(home, 'elsewhere.json');
    writeFileSync(elsewhere, readFileSync(paths.keys), { mode: 0o600 });
    rmSync(paths.keys);
    symlinkSync(elsewhere, paths.keys);
    expect(() => readKey(paths, 'openai')).toThrow(
      expect.objectContaining({ code: 'UNSAFE_STATE_FILE', message: expect.stringMatching(/symbolic link/) }),
    );
  });

  it('refuses a malformed key file by field, never by value', () => {
    mkdirSync(paths.dir, { mode: 0o700 });
    writeFileSync(paths.keys, JSON.stringify({ version: 1, keys: { openai: 42, extra: 'sk-leak' } }), {
      mode: 0o600,
    });
    expect(() => readKey(paths, 'openai')).toThrow(expect.objectContaining({ code: 'LOCAL_ERROR' }));
    try {
      readKey(paths, 'openai');
    } catch (error) {
      expect((error as Error).message).not.toContain('sk-leak');
    }
  });
});

describe('agent configuration', () => {
  it('fills in the provider default models and says when a provider is usable', () => {
    writeConfigFile(paths, {
      version: 1,
      provider: 'anthropic',
      models: { strong: 'claude-opus-4-1' },
      baseUrl: null,
      tools: {},
    });
    const config = readConfig(paths);
    expect(config.models).toEqual({ fast: 'claude-haiku-4-5', strong: 'claude-opus-4-1' });
    expect(isConfigured(config, false)).toBe(false);
    expect(isConfigured(config, true)).toBe(true);
    const local = resolveConfig({
      version: 1,
      provider: 'openai',
      models: {},
      baseUrl: 'http://127.0.0.1:11434/v1',
      tools: {},
    });
    expect(isConfigured(local, false)).toBe(true);
    expect(
      isConfigured(
        resolveConfig({ version: 1, provider: 'claude-code', models: {}, baseUrl: null, tools: {} }),
        false,
      ),
    ).toBe(true);
  });
});
