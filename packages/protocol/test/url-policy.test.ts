import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, checkAgentUrl } from '../src/index';

/** URLs no browser of an agent may open, whatever its options: local files aside, none is a web page. */
const REFUSED_URLS = [
  'data:text/html,<p>hi</p>',
  'view-source:https://example.org/',
  'javascript:alert(1)',
  'blob:https://example.org/0b1c2d3e',
  'chrome://settings',
  'chrome-extension://abcdefghijklmnopabcdefghijklmnop/panel.html?tab=1',
  'ftp://example.org/file',
  'about:srcdoc',
  'filesystem:https://example.org/temporary/x',
  'example.org',
  '/etc/hostname',
  '../token',
  'http://',
  ' ',
];

describe('the URLs an agent may open', () => {
  it('takes http:, https: and about:blank, as the browser will parse them', () => {
    expect(checkAgentUrl('https://example.org')).toEqual({
      ok: true,
      url: 'https://example.org/',
      file: false,
    });
    expect(checkAgentUrl('HTTP://Example.ORG/a b')).toEqual({
      ok: true,
      url: 'http://example.org/a%20b',
      file: false,
    });
    expect(checkAgentUrl('about:blank')).toEqual({ ok: true, url: 'about:blank', file: false });
  });

  it.each(REFUSED_URLS)('refuses %s, with or without file: URLs allowed', (url) => {
    for (const allowFile of [false, true]) {
      const verdict = checkAgentUrl(url, { allowFile });
      expect(verdict.ok).toBe(false);
      if (!verdict.ok) expect(verdict.reason).toMatch(/http: and https: URLs and about:blank only/);
    }
  });

  it('refuses file: URLs unless they are allowed, and says how they are', () => {
    for (const url of [
      'file:///etc/hostname',
      'FILE:///home/u/.bproxy/token',
      'file://localhost/etc/passwd',
    ]) {
      const refused = checkAgentUrl(url);
      expect(refused.ok).toBe(false);
      if (!refused.ok) expect(refused.reason).toContain('--allow-file-urls');
      expect(checkAgentUrl(url, { allowFile: true })).toMatchObject({ ok: true, file: true });
    }
  });

  it('has a catalogue code with a hint that says what is allowed', () => {
    expect(ERROR_CATALOGUE.URL_NOT_ALLOWED).toMatchObject({ category: 'policy', retry: false, status: 403 });
    expect(ERROR_CATALOGUE.URL_NOT_ALLOWED.hint).toMatch(/http: or https:/);
  });
});
