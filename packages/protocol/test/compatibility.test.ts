import { describe, expect, it } from 'vitest';
import { BPROXY_VERSION, compareVersions, versionSkew, versionsCompatible } from '../src/index';

describe('version compatibility rule', () => {
  it('same major works together, and while the major is 0 the same minor too', () => {
    expect(versionsCompatible('1.2.0', '1.5.3')).toBe(true);
    expect(versionsCompatible('1.0.0', '2.0.0')).toBe(false);
    expect(versionsCompatible('0.1.0', '0.1.7')).toBe(true);
    expect(versionsCompatible('0.1.0', '0.2.0')).toBe(false);
    expect(versionsCompatible('0.1.0-rc.1', '0.1.0')).toBe(true);
    expect(versionsCompatible(BPROXY_VERSION, BPROXY_VERSION)).toBe(true);
  });

  it('fails closed on a version that does not parse', () => {
    for (const odd of ['', 'test', '1.2', 'v1.2.3', '1.2.3.4', '01.x.0', '1.2.3-'])
      expect(versionsCompatible(odd, '1.2.3'), odd).toBe(false);
  });

  it('is symmetric, and orders versions with pre-releases first', () => {
    const versions = ['0.1.0', '0.1.9', '0.2.0', '1.0.0-beta', '1.0.0', '1.4.2', '2.0.0'];
    for (const a of versions)
      for (const b of versions) {
        expect(versionsCompatible(a, b)).toBe(versionsCompatible(b, a));
        expect(Math.sign(compareVersions(a, b))).toBe(Math.sign(versions.indexOf(a) - versions.indexOf(b)));
      }
    expect(compareVersions('garbage', '0.0.1')).toBeLessThan(0);
  });

  it('names the older part and the one step that fixes it', () => {
    expect(
      versionSkew({ part: 'extension', version: '0.1.0' }, { part: 'daemon', version: '0.1.4' }),
    ).toBeNull();
    const host = versionSkew(
      { part: 'extension', version: '0.2.0' },
      { part: 'native host', version: '0.1.3' },
    );
    expect(host?.old).toEqual({ part: 'native host', version: '0.1.3' });
    expect(host?.message).toBe(
      'the native host is version 0.1.3 and the extension 0.2.0: they do not work together, and the native host is the older one — run `bproxy setup`',
    );
    const daemon = versionSkew({ part: 'extension', version: '1.0.0' }, { part: 'daemon', version: '0.9.0' });
    expect(daemon?.message).toContain(
      'the daemon is the older one — restart the daemon: `bproxy service stop && bproxy service start`',
    );
    const extension = versionSkew(
      { part: 'extension', version: '0.1.0' },
      { part: 'daemon', version: '0.2.0' },
    );
    expect(extension?.message).toContain(
      'the extension is the older one — update the extension: reload it in chrome://extensions',
    );
  });
});
