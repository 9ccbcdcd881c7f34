import { describe, expect, it } from 'vitest';
import { parseWatchdogNews } from '../../src/lifecycle/watchdog';

describe("the watchdog's news from the bridge", () => {
  it('reads what the bridge writes', () => {
    expect(parseWatchdogNews('{"launching":true}')).toEqual({ launching: true });
    expect(parseWatchdogNews('{"pid":4242}')).toEqual({ pid: 4242 });
    expect(parseWatchdogNews('{"attached":17}')).toEqual({ attached: 17 });
  });

  it.each([
    ['not JSON', 'pid 5'],
    ['an array', '[5]'],
    ['a pid that is not a positive safe integer', '{"pid":-1}'],
    ['a fractional pid', '{"pid":1.5}'],
    ['a pid as a string', '{"pid":"5"}'],
    ['two pieces of news at once', '{"pid":5,"attached":6}'],
    ['launching that is not true', '{"launching":1}'],
  ])('ignores %s', (_case, line) => {
    expect(parseWatchdogNews(line)).toBeUndefined();
  });
});
