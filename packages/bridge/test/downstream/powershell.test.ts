import { describe, expect, it } from 'vitest';
import { encodeCommand, powerShellScript } from '../../src/downstream/powershell';

describe('the PowerShell scripts the bridge runs on Windows', () => {
  it('carry parameters as one JSON literal, so a quote in a path cannot become code', () => {
    const script = powerShellScript('read-port', {
      userDataDir: "C:\\Users\\O'Brien\\p'; Remove-Item C:\\ -Recurse; '",
    });
    const line = script.split('\n').find((l) => l.startsWith('$p = '));
    expect(line).toBe(
      `$p = '{"userDataDir":"C:\\\\Users\\\\O''Brien\\\\p''; Remove-Item C:\\\\ -Recurse; ''"}' | ConvertFrom-Json`,
    );
    expect(script.startsWith('# bproxy-bridge read-port\n')).toBe(true);
  });

  it('are sent as UTF-16LE base64, the form -EncodedCommand takes', () => {
    const script = powerShellScript('list', { name: 'chrome.exe' });
    expect(Buffer.from(encodeCommand(script), 'base64').toString('utf16le')).toBe(script);
  });
});
