/**
 * What a person writes in BPROXY_HOME/policy.json to let agents press Pay, Send or Delete, upload or
 * export state without asking (approvals' `classes`): the suites whose fixtures do so call it once
 * their daemon is up, keeping whatever else the file says. The approvals' own tests keep the defaults.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SITE_POLICY, SitePolicySchema, type ActionClass } from '@bproxy/protocol';

export function allowClasses(home: string, classes: readonly ActionClass[]): void {
  const file = join(home, 'policy.json');
  const current = existsSync(file)
    ? SitePolicySchema.parse(JSON.parse(readFileSync(file, 'utf8')))
    : DEFAULT_SITE_POLICY;
  const allowed = Object.fromEntries(classes.map((cls) => [cls, 'allow' as const]));
  const next = { ...current, classes: { ...current.classes, ...allowed } };
  writeFileSync(file, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}
