/**
 * The endpoint compares its secret in constant time: whatever the caller sent is copied into a buffer
 * the length of the secret and the two go through crypto.timingSafeEqual, so neither the bytes nor the
 * length of a guess change how long the comparison takes. A timing test would be flaky; this one
 * checks the comparison itself.
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

const { sameSecret } = await import('../src/upstream/endpoint-gate');

describe('the endpoint secret comparison', () => {
  beforeEach(() => {
    calls.length = 0;
  });

  it.each([
    ['the secret', 'abcdefghijklmnop', true],
    ['one character off', 'abcdefghijklmnoX', false],
    ['a shorter guess', 'abc', false],
    ['a longer guess', 'abcdefghijklmnopq', false],
    ['an empty guess', '', false],
  ])('compares %s through timingSafeEqual on buffers the length of the secret', (_name, given, result) => {
    expect(sameSecret(given, 'abcdefghijklmnop')).toBe(result);
    expect(calls).toEqual([[16, 16]]);
  });
});
