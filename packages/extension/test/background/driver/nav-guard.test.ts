/**
 * The site policy as declarativeNetRequest rules (nav-guard.ts): applied the way Chrome applies them —
 * the matching rule of highest priority wins, allow before block at equal priority — they stop exactly
 * the URLs decideUrl refuses.
 */
import { describe, expect, it } from 'vitest';
import { guardRefuses, type SitePolicy } from '@bproxy/protocol';
import { guardRules } from '../../../src/background/driver/nav-guard';

/** What Chrome would do with a main-frame request to `url` under `rules`. */
function blockedBy(rules: ReturnType<typeof guardRules>, url: string): boolean {
  const matching = rules.filter((r) => new RegExp(r.condition.regexFilter, 'i').test(url));
  if (matching.length === 0) return false;
  const top = Math.max(...matching.map((r) => r.priority));
  return !matching.some((r) => r.priority === top && r.action.type === 'allow');
}

const URLS = [
  'https://bank.example/',
  'https://bank.example/login?next=/',
  'https://user:pw@bank.example/',
  'https://bank.example:8443/',
  'http://bank.example/',
  'https://www.bank.example/',
  'https://a.b.bank.example/x',
  'https://x.a.bank.example/',
  'https://bank.example.evil.test/',
  'https://evil.test/?https://bank.example/',
  'https://notbank.example/',
  'https://shop.example/',
  'https://x.shop.example/',
  'https://safe.shop.example/',
  'http://127.0.0.2:4000/link.html',
  'http://127.0.0.2:4001/',
  'http://[::1]:8080/',
  'http://[::1]:8081/',
];

const POLICIES: SitePolicy[] = [
  { version: 1, default: 'allow', origins: { 'https://bank.example': { rule: 'deny' } } },
  {
    version: 1,
    default: 'allow',
    origins: {
      'https://*.shop.example': { rule: 'ask' },
      'https://safe.shop.example': { rule: 'allow' },
      'http://127.0.0.2:4000': { rule: 'deny' },
      'http://[::1]:8080': { rule: 'deny' },
    },
  },
  {
    version: 1,
    default: 'deny',
    origins: {
      'https://bank.example': { rule: 'allow' },
      'https://*.bank.example': { rule: 'allow' },
      'https://*.a.bank.example': { rule: 'deny' },
      'https://www.bank.example': { rule: 'deny' },
    },
  },
];

describe('the guard rules', () => {
  for (const [n, policy] of POLICIES.entries())
    it(`stop what the policy refuses and nothing else (policy ${n + 1})`, () => {
      const rules = guardRules(policy, [7]);
      for (const url of URLS) expect(blockedBy(rules, url), url).toBe(guardRefuses(policy, url));
      for (const rule of rules) expect(rule.condition.excludedTabIds).toEqual([7]);
    });

  it('stop every http(s) page when the policy is unusable', () => {
    const rules = guardRules(null, []);
    for (const url of URLS) expect(blockedBy(rules, url), url).toBe(true);
    expect(rules[0]?.condition).not.toHaveProperty('excludedTabIds');
  });
});
