/**
 * `bproxy` in a side panel's terminal: the session it drives is the tab's session now, which the native
 * host keeps in BPROXY_HOME/terminals/<terminal> — read when no -s is given or -s repeats the
 * terminal's $BPROXY_SESSION, through the checked state-file reader (no symlink, no file of another
 * owner or open to others); any other -s is taken as written.
 */
import { chmodSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeTerminalSession } from '@bproxy/client/lifecycle';
import { sessionNow } from '../src/global-options';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'bproxy-term-session-'));
  chmodSync(home, 0o700);
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const OLD = 'aaaaaaaaaaaaaaaaaaaaaaaaaa';
const NOW = 'bbbbbbbbbbbbbbbbbbbbbbbbbb';

describe('the session bproxy drives in a panel terminal', () => {
  it('is the tab’s session now, with no -s or with -s "$BPROXY_SESSION"; another -s is taken as written', () => {
    const env = { BPROXY_HOME: home, BPROXY_SESSION: OLD, BPROXY_TERMINAL: 'term-1t0a' };
    writeTerminalSession(home, 'term-1t0a', NOW);
    expect(sessionNow(OLD, env)).toBe(NOW);
    expect(sessionNow(undefined, { ...env, BPROXY_SESSION: undefined })).toBe(NOW);
    expect(sessionNow('m4q7z2', env)).toBe('m4q7z2');
    // No session holds the tab now: the variable stands (the daemon says it is gone).
    writeTerminalSession(home, 'term-1t0a', undefined);
    expect(sessionNow(OLD, env)).toBe(OLD);
    // Outside a panel terminal, or for a terminal with no file: as before.
    expect(sessionNow(OLD, { BPROXY_HOME: home, BPROXY_SESSION: OLD })).toBe(OLD);
    expect(sessionNow(OLD, { ...env, BPROXY_TERMINAL: 'term-other' })).toBe(OLD);
    expect(sessionNow(OLD, { ...env, BPROXY_TERMINAL: '../../etc/passwd' })).toBe(OLD);
  });

  it('refuses a terminal file open to others, or a symbolic link, rather than drive what it names', () => {
    const env = { BPROXY_HOME: home, BPROXY_SESSION: OLD, BPROXY_TERMINAL: 'term-1t0a' };
    writeTerminalSession(home, 'term-1t0a', NOW);
    const file = join(home, 'terminals', 'term-1t0a');
    chmodSync(file, 0o644);
    expect(() => sessionNow(OLD, env)).toThrow(/group and others must have no access/);
    rmSync(file);
    const planted = join(home, 'planted');
    writeFileSync(planted, NOW, { mode: 0o600 });
    symlinkSync(planted, file);
    expect(() => sessionNow(OLD, env)).toThrow(/symbolic link/);
  });
});
