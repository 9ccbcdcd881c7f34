/**
 * Policy: the site policy agents obey (BPROXY_HOME/policy.json), as the daemon holds it — the rule for
 * sites not listed, a rule per origin, what it refused lately — and a person's changes: add or remove a
 * rule, change the default, reset. Each change is a click here, sent through the worker's user channel
 * (the only door that writes the policy); the view shows the daemon's answer, never its own guess.
 */
import {
  ORIGIN_PATTERN,
  PolicyDecisionSchema,
  type PolicyView as PolicyAnswer,
  type SitePolicy,
} from '@bproxy/protocol';
import { byId, el } from './dom';
import type { PanelLink } from './link';
import type { PanelUserRequest } from '../common/panel-messages';

/** `https://Bank.example/login` → `https://bank.example`; a `*.` pattern as typed; null when neither. */
export function originOf(typed: string): string | null {
  const text = typed.trim().toLowerCase();
  if (ORIGIN_PATTERN.test(text)) return text;
  try {
    const url = new URL(text);
    return ORIGIN_PATTERN.test(url.origin) ? url.origin : null;
  } catch {
    return null;
  }
}

export class PolicyView {
  private readonly fallback = byId<HTMLSelectElement>('policy-default');
  private readonly foreground = byId<HTMLInputElement>('policy-foreground');
  private readonly rules = byId<HTMLUListElement>('policy-rules');
  private readonly refusals = byId<HTMLOListElement>('policy-refusals');
  private readonly origin = byId<HTMLInputElement>('policy-origin');
  private readonly rule = byId<HTMLSelectElement>('policy-rule');
  private readonly message = byId('policy-message');
  private policy: SitePolicy | null = null;

  constructor(private readonly link: PanelLink) {
    this.fallback.addEventListener('change', () => {
      const decision = PolicyDecisionSchema.safeParse(this.fallback.value);
      if (this.policy && decision.success) void this.write({ ...this.policy, default: decision.data });
    });
    this.foreground.addEventListener('change', () => {
      if (this.policy)
        void this.write({ ...this.policy, foreground: this.foreground.checked ? 'allow' : 'deny' });
    });
    byId<HTMLFormElement>('policy-add').addEventListener('submit', (event) => {
      event.preventDefault();
      const origin = originOf(this.origin.value);
      const decision = PolicyDecisionSchema.safeParse(this.rule.value);
      if (origin === null || !decision.success) {
        this.message.textContent = 'Type an origin like https://bank.example (or https://*.example.com)';
        return;
      }
      if (!this.policy) return;
      const entry = { ...this.policy.origins[origin], rule: decision.data, updatedAt: Date.now() };
      void this.write({ ...this.policy, origins: { ...this.policy.origins, [origin]: entry } }).then(() => {
        this.origin.value = '';
      });
    });
    byId('policy-reset').addEventListener('click', () => void this.send({ kind: 'policy_reset' }));
  }

  /** The view came to the front: read the policy as the daemon holds it now. */
  show(): void {
    void this.send({ kind: 'policy' });
  }

  private write(policy: SitePolicy): Promise<void> {
    return this.send({ kind: 'policy_set', policy });
  }

  private async send(request: PanelUserRequest): Promise<void> {
    const answer = await this.link.user(request);
    if (!answer.ok) {
      this.message.textContent = answer.reason;
      return;
    }
    if (answer.result.kind !== 'policy') return;
    this.message.textContent = request.kind === 'policy' ? '' : 'Saved: every agent obeys it from now on.';
    this.render(answer.result);
  }

  private render(view: PolicyAnswer): void {
    this.policy = view.policy;
    if (view.policy === null) {
      this.message.textContent = `policy.json is unusable, so every site is refused: ${view.broken ?? ''}`;
      this.rules.replaceChildren();
    } else {
      const policy = view.policy;
      this.fallback.value = policy.default;
      this.foreground.checked = policy.foreground !== 'deny';
      this.rules.replaceChildren(
        ...Object.entries(policy.origins).map(([origin, entry]) => {
          const remove = el('button', { text: 'Remove', className: 'link' });
          remove.type = 'button';
          remove.addEventListener('click', () => {
            const { [origin]: _gone, ...rest } = policy.origins;
            void this.write({ ...policy, origins: rest });
          });
          const classes = Object.entries(entry.classes ?? {})
            .map(([k, v]) => `${k}: ${v}`)
            .join(', ');
          return el(
            'li',
            {},
            el('code', { text: origin }),
            el('span', { text: ` ${entry.rule ?? '(default)'} `, className: 'badge' }),
            classes === '' ? null : el('span', { text: ` ${classes} `, className: 'muted' }),
            remove,
          );
        }),
      );
    }
    this.refusals.replaceChildren(
      ...[...view.refusals]
        .reverse()
        .map((r) =>
          el(
            'li',
            { title: r.rule },
            el('span', { text: new Date(r.at).toLocaleTimeString(), className: 'muted' }),
            el('span', { text: ` ${r.origin} — ${r.how === 'navigate' ? 'not opened' : 'paused there'}` }),
          ),
        ),
    );
  }
}
