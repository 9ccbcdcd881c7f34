import { describe, expect, it } from 'vitest';
import { parseWsProtocols, passesGate, routeSecretFor, secretEquals } from '../../src/http/auth';
import { wsAuthProtocol } from '@bproxy/protocol';

const config = {
  port: () => 9615,
  extensionIds: ['oajmbecmcoogehkeimcopdfcilgnicbm', 'b'.repeat(32)],
  daemonToken: 'a'.repeat(64),
  extensionToken: () => 'T'.repeat(43),
};
const ok = { host: '127.0.0.1:9615', authorization: `Bearer ${'a'.repeat(64)}` };

describe('gate (unit)', () => {
  it('passes the CLI shape of request', () => {
    expect(passesGate(config, 'POST', '/', ok)).toBe(true);
  });

  it('ignores the query string when choosing the route secret', () => {
    expect(routeSecretFor('GET', '/ws')).toBe('ws');
    expect(passesGate(config, 'GET', '/ws?x=1', { host: '127.0.0.1:9615' })).toBe(false);
  });

  it('refuses a WS upgrade before any pairing happened', () => {
    const unpaired = { ...config, extensionToken: () => null };
    const headers = {
      host: '127.0.0.1:9615',
      origin: 'chrome-extension://oajmbecmcoogehkeimcopdfcilgnicbm',
      'sec-websocket-protocol': `bproxy.v1, ${wsAuthProtocol('T'.repeat(43))}`,
    };
    expect(passesGate(config, 'GET', '/ws', headers)).toBe(true);
    expect(passesGate(unpaired, 'GET', '/ws', headers)).toBe(false);
  });

  it('accepts the Origin of every trusted extension id and refuses any other, even a near one', () => {
    const pairing = (origin: string) => ({ host: '127.0.0.1:9615', origin });
    expect(
      passesGate(
        config,
        'POST',
        '/pair/claim',
        pairing('chrome-extension://oajmbecmcoogehkeimcopdfcilgnicbm'),
      ),
    ).toBe(true);
    expect(passesGate(config, 'POST', '/pair/claim', pairing(`chrome-extension://${'b'.repeat(32)}`))).toBe(
      true,
    );
    expect(passesGate(config, 'POST', '/pair/claim', pairing(`chrome-extension://${'c'.repeat(32)}`))).toBe(
      false,
    );
    expect(passesGate(config, 'POST', '/pair/claim', pairing(`chrome-extension://${'b'.repeat(32)}/`))).toBe(
      false,
    );
    expect(
      passesGate(
        { ...config, extensionIds: [] },
        'POST',
        '/pair/claim',
        pairing(`chrome-extension://${'b'.repeat(32)}`),
      ),
    ).toBe(false);
  });

  it('refuses repeated gate headers', () => {
    expect(passesGate(config, 'POST', '/', ok, ['Host', '127.0.0.1:9615', 'host', 'evil:9615'])).toBe(false);
  });

  it("parses the subprotocol list strictly and decodes the seed's auth.{base64url(token)}", () => {
    const token = 'abcdefghijklmnopqrstuvwxyz';
    const entry = wsAuthProtocol(token);
    expect(entry).toBe(`auth.${Buffer.from(token).toString('base64url')}`);
    expect(parseWsProtocols(`bproxy.v1, ${entry}`)).toEqual({ token });
    expect(parseWsProtocols(`${entry}, bproxy.v1`)).toBeNull();
    expect(parseWsProtocols(`bproxy.v1, ${entry}, x`)).toBeNull();
    expect(parseWsProtocols(`bproxy.v1, ${wsAuthProtocol('short')}`)).toBeNull();
    expect(parseWsProtocols('bproxy.v1, auth.!!!')).toBeNull();
  });

  it('refuses the token sent without the base64url encoding the seed prescribes', () => {
    const token = 'T'.repeat(43);
    const headers = (entry: string) => ({
      host: '127.0.0.1:9615',
      origin: 'chrome-extension://oajmbecmcoogehkeimcopdfcilgnicbm',
      'sec-websocket-protocol': `bproxy.v1, ${entry}`,
    });
    const withToken = { ...config, extensionToken: () => token };
    expect(passesGate(withToken, 'GET', '/ws', headers(wsAuthProtocol(token)))).toBe(true);
    expect(passesGate(withToken, 'GET', '/ws', headers(`auth.${token}`))).toBe(false);
  });

  it('compares secrets in constant time regardless of length', () => {
    expect(secretEquals('abc', 'abc')).toBe(true);
    expect(secretEquals('abc', 'abcd')).toBe(false);
    expect(secretEquals('', 'abc')).toBe(false);
  });
});
