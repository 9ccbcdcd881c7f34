/**
 * The in-browser agent's checks: a provider configured (a warning when none is: the agent is
 * optional), its key set where it takes one, and its model SDK present where the native host's copy
 * loads it from (BPROXY_HOME/host/<version>/, through the links `bproxy setup` made) — not only beside
 * this CLI. Read through the agent's own bundle (dist/agent.mjs), as `bproxy agent config` does; it
 * writes nothing here. Keys are only ever said to be set or unset.
 */
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { besideCli } from '../../runtime';
import { type Check, type DoctorContext, fail, ok, warn } from './checks';

type Shown = Record<string, unknown>;
type Outcome = { ok: true; shown: Shown } | { ok: false; code: string; message: string };

interface AgentStatusModule {
  agentStatus(env: Readonly<Record<string, string | undefined>>): Outcome | null;
}

function isModule(value: unknown): value is AgentStatusModule {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { agentStatus?: unknown }).agentStatus === 'function'
  );
}

interface SdkShown {
  readonly package: string;
  readonly installed: boolean;
  readonly install?: string;
  readonly host: { readonly dir: string; readonly installed: boolean } | null;
}

function sdkOf(shown: Shown): SdkShown | null {
  const sdk = shown.sdk;
  if (sdk === null || typeof sdk !== 'object') return null;
  const record = sdk as Record<string, unknown>;
  if (typeof record.package !== 'string' || typeof record.installed !== 'boolean') return null;
  const host = record.host as { dir?: unknown; installed?: unknown } | null | undefined;
  return {
    package: record.package,
    installed: record.installed,
    ...(typeof record.install === 'string' ? { install: record.install } : {}),
    host:
      host !== null &&
      host !== undefined &&
      typeof host.dir === 'string' &&
      typeof host.installed === 'boolean'
        ? { dir: host.dir, installed: host.installed }
        : null,
  };
}

const CONFIGURE =
  '`bproxy agent config --provider NAME` (anthropic, openai, copilot or claude-code; see `bproxy agent config --help`)';

function sdkCheck(provider: string, sdk: SdkShown | null): Check {
  if (sdk === null) return ok('agent', 'sdk', `the ${provider} provider needs no SDK`);
  if (sdk.host === null && !sdk.installed)
    return fail(
      'agent',
      'sdk',
      `${sdk.package} is not installed`,
      `\`${sdk.install ?? `npm i -g ${sdk.package}`}\`, then \`bproxy setup\``,
    );
  if (sdk.host === null)
    return ok(
      'agent',
      'sdk',
      `${sdk.package} is installed beside bproxy (no native host copy to check: see the host's checks)`,
    );
  if (sdk.host.installed)
    return ok('agent', 'sdk', `${sdk.package}, found from the native host's copy ${sdk.host.dir}`);
  if (!sdk.installed)
    return fail(
      'agent',
      'sdk',
      `${sdk.package} is not installed`,
      `\`${sdk.install ?? `npm i -g ${sdk.package}`}\`, then \`bproxy setup\``,
    );
  return fail(
    'agent',
    'sdk',
    `${sdk.package} is installed beside bproxy, but the native host's copy ${sdk.host.dir}, which loads the agent, does not reach it (installed after \`bproxy setup\`)`,
    '`bproxy setup`',
  );
}

export async function agentChecks(context: DoctorContext): Promise<Check[]> {
  const bundle = besideCli('agent.mjs');
  if (!existsSync(bundle))
    return [fail('agent', 'provider', `the agent's bundle is missing (${bundle})`, 'reinstall bproxy')];
  const mod: unknown = await import(pathToFileURL(bundle).href);
  if (!isModule(mod))
    return [
      fail('agent', 'provider', `the agent's bundle ${bundle} is not this bproxy's`, 'reinstall bproxy'),
    ];
  const outcome = mod.agentStatus(context.env);
  if (outcome === null)
    return [
      warn('agent', 'provider', "no provider configured: the side panel's Chat is off (optional)", CONFIGURE),
    ];
  if (!outcome.ok)
    return [
      fail(
        'agent',
        'provider',
        `${outcome.code}: ${outcome.message}`,
        'fix the file it names, or configure again: ' + CONFIGURE,
      ),
    ];
  const shown = outcome.shown;
  const provider = typeof shown.provider === 'string' ? shown.provider : null;
  if (provider === null)
    return [
      warn('agent', 'provider', "no provider configured: the side panel's Chat is off (optional)", CONFIGURE),
    ];
  const checks: Check[] = [];
  if (shown.configured === true)
    checks.push(ok('agent', 'provider', `${provider} (key ${String(shown.key)})`));
  else
    checks.push(
      fail(
        'agent',
        'provider',
        `${provider} is chosen but not usable yet (key ${String(shown.key)})`,
        `\`bproxy agent config --provider ${provider} --key-stdin < key.txt\` (or --key-env NAME)`,
      ),
    );
  checks.push(sdkCheck(provider, sdkOf(shown)));
  return checks;
}
