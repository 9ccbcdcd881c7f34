import { describe, expect, it } from 'vitest';
import { ACTIONS, forwardedParamsSchema } from '../../src/actions';

describe('the network read params', () => {
  it('take no revealSecrets from an agent: only the daemon adds it, from the user settings', () => {
    for (const action of ['network.get', 'network.har'] as const) {
      const base = action === 'network.get' ? { request: 'r1' } : { file: 'a.har' };
      expect(ACTIONS[action].params.safeParse({ ...base, revealSecrets: true }).success, action).toBe(false);
      expect(ACTIONS[action].params.safeParse(base).success, action).toBe(true);
    }
    expect(
      forwardedParamsSchema('network.get').safeParse({ request: 'r1', revealSecrets: true }).success,
    ).toBe(true);
  });
});
