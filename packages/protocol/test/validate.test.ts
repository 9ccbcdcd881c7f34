import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeValue, formatIssues, parseRequest } from '../src/validate';
import {
  DEEP,
  deepArray,
  deepObject,
  hostileJson,
  hostileValues,
} from '../../../tests/fixtures/hostile-json';

const MiB = 1024 * 1024;

describe('describing what was wrong', () => {
  it('describes any value — 100,000 deep, 100,000 wide, megabytes long — in a bounded line, never throwing', () => {
    for (const { json } of hostileValues(16 * MiB)) {
      const text = describeValue(JSON.parse(json) as unknown);
      expect(text.length).toBeLessThanOrEqual(60);
    }
    fc.assert(
      fc.property(hostileJson(MiB), (json) => {
        expect(describeValue(JSON.parse(json) as unknown).length).toBeLessThanOrEqual(60);
      }),
      { numRuns: 100 },
    );
    expect(describeValue(JSON.parse(deepArray(DEEP)) as unknown)).toBe('[[[[…]]]]');
    expect(describeValue({ a: 1, b: [true, null, 'x'] })).toBe('{"a":1,"b":[true,null,"x"]}');
    expect(describeValue(undefined)).toBe('nothing');
    const hostile = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('no');
        },
      },
    );
    expect(describeValue(hostile)).toBe('object');
  });

  it('keeps a validation message bounded for a value nested 100,000 deep, a huge key list and long keys', () => {
    const deep = JSON.parse(deepObject(DEEP)) as unknown;
    const request = parseRequest({ id: 'a', action: 'text', params: deep, deadline: Date.now() + 1_000 });
    expect(request.ok).toBe(false);
    if (!request.ok) {
      expect(request.error.code).toBe('BAD_REQUEST');
      expect(request.error.message).toContain('params: unknown field(s) "a"');
    }
    const wide: Record<string, number> = {};
    for (let i = 0; i < 100_000; i++) wide[`${'k'.repeat(100)}${i}`] = i;
    const strict = z.strictObject({ n: z.number() });
    const parsed = strict.safeParse({ n: JSON.parse(deepArray(DEEP)) as unknown, ...wide });
    expect(parsed.success).toBe(false);
    if (!parsed.success) {
      const message = formatIssues(parsed.error, { n: JSON.parse(deepArray(DEEP)) as unknown, ...wide });
      expect(message.length).toBeLessThan(2_000);
      expect(message).toContain('and 99995 more');
      expect(message).toContain('n: expected number, received array, got [[[[…]]]]');
    }
  });
});
