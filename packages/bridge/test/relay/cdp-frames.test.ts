import { describe, expect, it } from 'vitest';
import { classifyDownstream, parseUpstream, withId } from '../../src/relay/cdp-frames';

describe('CDP frames', () => {
  it('swaps a leading id on the text and leaves the rest untouched', () => {
    const big = `{"id":12,"result":{"data":"${'x'.repeat(1000)}"}}`;
    expect(withId(big, 3)).toBe(`{"id":3,"result":{"data":"${'x'.repeat(1000)}"}}`);
    expect(withId('{"id":-9999,"method":"Browser.close","params":{}}', 7)).toBe(
      '{"id":7,"method":"Browser.close","params":{}}',
    );
  });

  it('re-serializes a message whose id does not lead', () => {
    expect(JSON.parse(withId('{"method":"M","id":4,"params":{}}', 9) ?? '')).toEqual({
      method: 'M',
      id: 9,
      params: {},
    });
  });

  it('tells answers from events without parsing the events it does not watch', () => {
    expect(classifyDownstream('{"id":5,"result":{}}')).toMatchObject({ kind: 'response', id: 5 });
    expect(classifyDownstream('{"method":"Network.requestWillBeSent","params":{"id":3}}')).toMatchObject({
      kind: 'event',
      method: 'Network.requestWillBeSent',
    });
    expect(classifyDownstream('{"params":{},"method":"Inspector.detached"}')).toMatchObject({
      kind: 'event',
      method: 'Inspector.detached',
    });
    expect(classifyDownstream('[1]')).toEqual({ kind: 'other' });
  });

  it('accepts only commands shaped as CDP says', () => {
    expect(parseUpstream('{"id":1,"method":"M","params":{"a":1},"sessionId":"S"}')).toMatchObject({
      ok: true,
      request: { id: 1, method: 'M', params: { a: 1 }, sessionId: 'S' },
    });
    expect(parseUpstream('{"id":1,"method":"M"}')).toMatchObject({ ok: true, request: { params: {} } });
    expect(parseUpstream('{"id":1.5,"method":"M"}')).toEqual({ ok: false, id: undefined, looseId: 1.5 });
    expect(parseUpstream('{"id":"1","method":"M"}')).toEqual({
      ok: false,
      id: undefined,
      looseId: undefined,
    });
    expect(parseUpstream('{"id":2,"method":7}')).toEqual({ ok: false, id: 2, looseId: undefined });
    expect(parseUpstream('{"id":2,"method":"M","params":[]}')).toEqual({
      ok: false,
      id: 2,
      looseId: undefined,
    });
    expect(parseUpstream('{"id":2,"method":"M","sessionId":1}')).toEqual({
      ok: false,
      id: 2,
      looseId: undefined,
    });
  });
});
