import { describe, expect, it } from 'vitest';
import { REDACTED, redactHeaders } from '../../src/observe/redact';

const headers = [
  { name: 'Authorization', value: 'Bearer abc' },
  { name: 'Proxy-Authorization', value: 'Basic xyz' },
  { name: 'Cookie', value: 'sid=1' },
  { name: 'set-cookie', value: 'sid=2; HttpOnly' },
  { name: 'X-Api-Key', value: 'k-1' },
  { name: 'X-CSRF-Token', value: 't-1' },
  { name: 'Content-Type', value: 'text/html' },
];

describe('header redaction', () => {
  it('replaces Authorization, Proxy-Authorization, Cookie, Set-Cookie and key or token headers, and names them', () => {
    const { headers: out, redacted } = redactHeaders(headers, false);
    expect(out.map((h) => h.value)).toEqual([
      REDACTED,
      REDACTED,
      REDACTED,
      REDACTED,
      REDACTED,
      REDACTED,
      'text/html',
    ]);
    expect(redacted).toEqual([
      'authorization',
      'proxy-authorization',
      'cookie',
      'set-cookie',
      'x-api-key',
      'x-csrf-token',
    ]);
    expect(JSON.stringify(out)).not.toMatch(/abc|xyz|sid=|k-1|t-1/);
  });

  it('keeps the values when the user revealed them', () => {
    expect(redactHeaders(headers, true)).toEqual({ headers, redacted: [] });
  });
});
