/**
 * The gate compares every secret (bearer, extension token, pairing code) in constant time: both sides
 * are hashed to 32 bytes first, so even their lengths are not compared, and the digests go through
 * crypto.timingSafeEqual. A timing test would be flaky; this one checks the comparison itself.
 */
import type * as Crypto from 'node:crypto';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const calls = vi.hoisted(() => [] as [number, number][]);
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof Crypto>();
  return {
    ...real,
    timingSafeEqual: (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
      calls.push([a.byteLength, b.byteLength]);
      return real.timingSafeEqual(a, b);
    },
  };
});

const { secretEquals } = await import('../../src/http/auth');

describe('secretEquals', () => {
  beforeEach(() => {
    calls.length = 0;
  });

  it.each([
    ['equal secrets', 'abcdefgh', 'abcdefgh', true],
    ['one character off', 'abcdefgh', 'abcdefgx', false],
    ['a shorter guess', 'abc', 'abcdefgh', false],
    ['an empty guess', '', 'abcdefgh', false],
  ])('compares %s through timingSafeEqual on equal-length digests', (_name, given, expected, result) => {
    expect(secretEquals(given, expected)).toBe(result);
    expect(calls).toEqual([[32, 32]]);
  });
});
