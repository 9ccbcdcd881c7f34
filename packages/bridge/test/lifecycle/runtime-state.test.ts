import { describe, expect, it } from 'vitest';
import { RuntimeStateMachine, type RuntimeState } from '../../src/lifecycle/runtime-state';

function through(...steps: RuntimeState[]): RuntimeState[] {
  const machine = new RuntimeStateMachine();
  const seen: RuntimeState[] = [machine.state];
  machine.onChange((to) => seen.push(to));
  for (const step of steps) machine.move(step);
  return seen;
}

describe('the bridge state machine', () => {
  it('goes starting → connected → degraded → connected → closing', () => {
    expect(through('connected', 'degraded', 'connected', 'closing')).toEqual([
      'starting',
      'connected',
      'degraded',
      'connected',
      'closing',
    ]);
  });

  it('allows closing from every live state', () => {
    expect(through('closing')).toEqual(['starting', 'closing']);
    expect(through('connected', 'degraded', 'closing').at(-1)).toBe('closing');
  });

  it.each([
    [['degraded']],
    [['connected', 'starting']],
    [['closing', 'connected']],
    [['connected', 'degraded', 'degraded']],
  ] as RuntimeState[][][])('refuses %j', (steps) => {
    expect(() => through(...steps)).toThrow(/is not a transition/);
  });
});
