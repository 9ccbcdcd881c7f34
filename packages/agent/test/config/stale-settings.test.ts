/**
 * A save from the panel names what it showed for each field it changes: a field changed elsewhere
 * since (`bproxy agent config`) is stale, one still as shown is not, and a save without a base (an
 * older panel) is taken as it is.
 */
import { describe, expect, it } from 'vitest';
import type { AgentConfig } from '../../src/config/agent-config';
import { staleFields } from '../../src/config/stale-settings';

const config: AgentConfig = {
  provider: 'openai',
  models: { fast: 'beta-fast', strong: 'beta-strong' },
  baseUrl: null,
  tools: { text: false },
  sharedNotes: false,
};
const switches = (tools: AgentConfig['tools']) => ({
  text: tools.text !== false,
  click: tools.click !== false,
});

describe('staleFields', () => {
  it('names the fields whose shown value is no longer the current one', () => {
    expect(
      staleFields(
        { models: { fast: 'alpha-fast', strong: 'beta-strong' }, tools: { text: true, click: true } },
        config,
        switches,
      ),
    ).toEqual(['models.fast', 'tools.text']);
    expect(
      staleFields({ models: { strong: 'beta-strong' }, tools: { click: true } }, config, switches),
    ).toEqual([]);
    expect(staleFields(undefined, config, switches)).toEqual([]);
  });
});
