import { describe, expect, it } from 'vitest';
import { parseParams, urlMatches, waitConditionsOf } from '../src/index';

describe('wait conditions', () => {
  it('matches a URL pattern: contained without *, whole with * standing for any run of characters', () => {
    expect(urlMatches('https://a.test/cart?step=2', 'step=2')).toBe(true);
    expect(urlMatches('https://a.test/cart?step=2', 'step=3')).toBe(false);
    expect(urlMatches('https://a.test/cart/done', '*/cart/done')).toBe(true);
    expect(urlMatches('https://a.test/cart/done?x=1', '*/cart/done')).toBe(false);
    expect(urlMatches('https://a.test/cart/done?x=1', '*/cart/done*')).toBe(true);
    // Everything but * is literal: a dot or a question mark in the pattern is not a regex.
    expect(urlMatches('https://aXtest/', 'https://a.test/*')).toBe(false);
    expect(urlMatches('https://a.test/p?q', 'https://a.test/p?q*')).toBe(true);
  });

  it('takes exactly one condition per wait, a false boolean counting as none', () => {
    expect(waitConditionsOf({ url: '*/x', timeoutMs: 5 })).toEqual(['url']);
    expect(waitConditionsOf({ load: false, textGone: 'x' })).toEqual(['textGone']);
    expect(parseParams('wait', { load: true }).ok).toBe(true);
    expect(parseParams('wait', { textGone: 'Loading' }).ok).toBe(true);
    const two = parseParams('wait', { url: 'x', load: true });
    expect(two.ok).toBe(false);
    if (!two.ok)
      expect(two.error.message).toContain(
        'give exactly one of text, textGone, selector, target, navigation, url, load',
      );
    expect(parseParams('wait', {}).ok).toBe(false);
  });
});
