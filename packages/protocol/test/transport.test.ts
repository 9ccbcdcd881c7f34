import { describe, expect, it } from 'vitest';
import { createLinkedTransportPair } from '../src/index';

describe('linked transport pair', () => {
  it('delivers asynchronously, in order, as copies', async () => {
    const [a, b] = createLinkedTransportPair<{ n: number }, { n: number }>();
    const got: { n: number }[] = [];
    b.onmessage = (m) => got.push(m);
    const sent = { n: 1 };
    a.send(sent);
    a.send({ n: 2 });
    expect(got).toEqual([]);
    await Promise.resolve();
    await Promise.resolve();
    expect(got).toEqual([{ n: 1 }, { n: 2 }]);
    expect(got[0]).not.toBe(sent);
  });

  it('keeps messages that arrive before a handler is set', async () => {
    const [a, b] = createLinkedTransportPair<string, string>();
    a.send('hello');
    await new Promise((r) => setTimeout(r, 0));
    const got: string[] = [];
    b.onmessage = (m) => got.push(m);
    expect(got).toEqual(['hello']);
  });

  it('closes both ends once and drops later sends', async () => {
    const [a, b] = createLinkedTransportPair<string, string>();
    const reasons: string[] = [];
    a.onclose = (r) => reasons.push(`a:${r}`);
    b.onclose = (r) => reasons.push(`b:${r}`);
    const got: string[] = [];
    b.onmessage = (m) => got.push(m);
    a.close('bye');
    a.close('again');
    a.send('late');
    await new Promise((r) => setTimeout(r, 0));
    expect(reasons).toEqual(['a:bye', 'b:bye']);
    expect(got).toEqual([]);
  });
});
