/**
 * BPROXY_HOME/policy.json, the site policy a person writes: the defaults without a file, the checks of
 * every state file (0600, the user's own, no symlink), a malformed file refused rather than guessed
 * around, and a running daemon's store that reads a hand edit at once and denies everything while the
 * file is unusable (fail closed).
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decideUrl, DEFAULT_SITE_POLICY, type SitePolicy } from '@bproxy/protocol';
import { statePaths } from '../../src/lifecycle/paths';
import { loadPolicy, PolicyStore, savePolicy } from '../../src/lifecycle/policy-store';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});
function paths() {
  const root = mkdtempSync(join(tmpdir(), 'bproxy-policy-store-'));
  roots.push(root);
  const p = statePaths(join(root, 'home'));
  mkdirSync(p.home, { recursive: true, mode: 0o700 });
  return p;
}

const BANK: SitePolicy = {
  version: 1,
  default: 'allow',
  origins: {
    'https://bank.example': { rule: 'deny' },
    'https://*.shop.example': { rule: 'ask' },
    'http://127.0.0.1:8080': { rule: 'allow', classes: { submit: 'allow' } },
  },
  classes: { submit: 'ask', first_visit: 'allow' },
};

describe('the site policy file (policy.json)', () => {
  it('is the defaults without a file: every origin allowed, no rule named', () => {
    const p = paths();
    expect(loadPolicy(p)).toEqual(DEFAULT_SITE_POLICY);
    expect(decideUrl(loadPolicy(p), 'https://anything.example/x')).toEqual({
      origin: 'https://anything.example',
      decision: 'allow',
      rule: 'default',
    });
  });

  it('is saved 0600 and read back, approvals’ class fields kept', () => {
    const p = paths();
    savePolicy(p, BANK);
    expect(statSync(p.policy).mode & 0o777).toBe(0o600);
    expect(loadPolicy(p)).toEqual(BANK);
  });

  it('decides by the exact origin, then the longest *. pattern, then the default', () => {
    const d = (url: string) => decideUrl(BANK, url);
    expect(d('https://bank.example/login')).toMatchObject({ decision: 'deny', rule: 'https://bank.example' });
    // Another scheme or port is another origin.
    expect(d('http://bank.example/')).toMatchObject({ decision: 'allow', rule: 'default' });
    expect(d('https://a.b.shop.example/')).toMatchObject({ decision: 'ask', rule: 'https://*.shop.example' });
    expect(d('https://shop.example/')).toMatchObject({ decision: 'allow', rule: 'default' });
    expect(d('HTTP://127.0.0.1:8080/x')).toMatchObject({ decision: 'allow', rule: 'http://127.0.0.1:8080' });
    expect(d('about:blank')).toBeNull();
  });

  it('refuses a file open to others, a symlink, or content outside the format (fail closed)', () => {
    const p = paths();
    savePolicy(p, BANK);
    chmodSync(p.policy, 0o644);
    expect(() => loadPolicy(p)).toThrow(/its mode is 0644/);
    rmSync(p.policy);
    const planted = join(p.home, '..', 'planted.json');
    writeFileSync(planted, JSON.stringify(DEFAULT_SITE_POLICY), { mode: 0o600 });
    symlinkSync(planted, p.policy);
    expect(() => loadPolicy(p)).toThrow(/symbolic link/);
    rmSync(p.policy);
    for (const bad of [
      'nope',
      '{}',
      '{"version":2,"default":"allow","origins":{}}',
      '{"version":1,"default":"maybe","origins":{}}',
      '{"version":1,"default":"allow","origins":{"bank.example":{"rule":"deny"}}}',
      '{"version":1,"default":"allow","origins":{"https://bank.example/path":{"rule":"deny"}}}',
      '{"version":1,"default":"allow","origins":{"https://bank.example":{"rule":"block"}}}',
      '{"version":1,"default":"allow","origins":{},"classes":{"teleport":"ask"}}',
      '{"version":1,"default":"allow","origins":{},"extra":1}',
    ]) {
      writeFileSync(p.policy, bad, { mode: 0o600 });
      expect(() => loadPolicy(p), bad).toThrow(/is not a site policy/);
      rmSync(p.policy);
    }
  });

  it('in a running daemon, a hand edit takes effect at once and an unusable file denies every origin until fixed', () => {
    const p = paths();
    const store = new PolicyStore(p);
    expect(store.decide('https://bank.example/')).toMatchObject({ decision: 'allow' });
    savePolicy(p, BANK);
    expect(store.decide('https://bank.example/')).toMatchObject({ decision: 'deny' });
    chmodSync(p.policy, 0o666);
    expect(store.decide('https://elsewhere.example/')).toMatchObject({
      origin: 'https://elsewhere.example',
      broken: expect.stringMatching(/its mode is 0666/) as unknown,
    });
    chmodSync(p.policy, 0o600);
    expect(store.decide('https://elsewhere.example/')).toMatchObject({ decision: 'allow' });
    writeFileSync(p.policy, '{"version":1', { mode: 0o600 });
    expect(store.decide('https://elsewhere.example/')).toHaveProperty('broken');
    // A start with an unusable file stops rather than run without the person's rules.
    expect(() => new PolicyStore(p)).toThrow(/is not a site policy/);
  });
});
