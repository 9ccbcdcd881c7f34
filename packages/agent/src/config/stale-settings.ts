/**
 * Settings saved from a panel that showed older ones must not overwrite newer ones: `settings.set`
 * carries what the panel showed for each field it changes (`base`), and a field that is no longer that
 * (`bproxy agent config` changed the provider or a model meanwhile) makes the whole save refused.
 */
import type { AgentConfig } from './agent-config';

/** Starts the refusal's message: the panel recognises it and shows the current settings. */
export const SETTINGS_CHANGED = 'the settings changed since the panel showed them';

interface Base {
  readonly tools?: Readonly<Record<string, boolean>>;
  readonly models?: { readonly fast?: string; readonly strong?: string };
}

/** The fields whose shown value is no longer the current one (`models.fast`, `tools.text`, …). */
export function staleFields(
  base: Base | undefined,
  config: AgentConfig,
  switches: (tools: AgentConfig['tools']) => Record<string, boolean>,
): string[] {
  if (base === undefined) return [];
  const stale: string[] = [];
  for (const tier of ['fast', 'strong'] as const) {
    const shown = base.models?.[tier];
    if (shown !== undefined && shown !== config.models[tier]) stale.push(`models.${tier}`);
  }
  const now = switches(config.tools);
  for (const [name, shown] of Object.entries(base.tools ?? {}))
    if (now[name] !== undefined && now[name] !== shown) stale.push(`tools.${name}`);
  return stale;
}
