/**
 * Approvals: the actions an agent asked for that wait for a person's decision, shown above whichever
 * view is open (a person never has to look for them), as the daemon pushed them last — what exactly
 * would happen: the action, the element's name, the origin, the form's fields (secret values masked by
 * the page layer before they left the page) —, with Allow once, Always on this site and Deny. Each
 * decision is a click here, sent through the worker's user channel; the card goes when the daemon's
 * next push no longer has it (decided, expired, or its session closed).
 */
import type { ApprovalDecision, PendingApproval } from '@bproxy/protocol';
import { approvalWhat, CLASS_TITLES } from './approval-words';
import { byId, el } from './dom';
import type { PanelLink } from './link';

const DECISIONS: readonly [ApprovalDecision, string, string][] = [
  ['allow_once', 'Allow once', 'primary'],
  ['always', 'Always on this site', ''],
  ['deny', 'Deny', 'danger'],
];

export class ApprovalsView {
  private readonly section = byId('approvals');
  private readonly list = byId<HTMLOListElement>('approvals-list');
  private readonly message = byId('approvals-message');
  private shown: PendingApproval[] = [];

  constructor(private readonly link: PanelLink) {
    link.on((message) => {
      if (message.type === 'approvals') this.render(message.pending);
    });
  }

  private render(pending: PendingApproval[]): void {
    const before = new Set(this.shown.map((a) => a.id));
    this.shown = pending.filter((a) => a.state === 'pending');
    // A new question: what was said of the last decision is old news.
    if (this.shown.some((a) => !before.has(a.id))) this.message.textContent = '';
    this.section.hidden = this.shown.length === 0;
    this.list.replaceChildren(...this.shown.map((a) => this.card(a)));
  }

  private card(approval: PendingApproval): HTMLLIElement {
    const fields =
      approval.fields.length === 0
        ? null
        : el(
            'table',
            { className: 'approval-fields' },
            ...approval.fields.map((f) =>
              el(
                'tr',
                {},
                el('th', { text: f.name === '' ? f.type : f.name }),
                el('td', { text: f.value === '' ? '(empty)' : f.value }),
              ),
            ),
          );
    const buttons = el('div', { className: 'buttons' });
    for (const [decision, label, className] of DECISIONS) {
      const button = el('button', { text: label, className });
      button.type = 'button';
      button.dataset.decision = decision;
      button.addEventListener('click', () => {
        for (const b of Array.from(buttons.querySelectorAll('button'))) b.disabled = true;
        void this.decide(approval, decision).finally(() => {
          for (const b of Array.from(buttons.querySelectorAll('button'))) b.disabled = false;
        });
      });
      buttons.append(button);
    }
    const item = el(
      'li',
      { className: 'approval' },
      el(
        'p',
        { className: 'approval-what' },
        el('strong', { text: `${CLASS_TITLES[approval.class]}: ` }),
        document.createTextNode(approvalWhat(approval)),
      ),
      el('p', { className: 'approval-where muted', text: `on ${approval.origin}` }),
      approval.why === undefined ? null : el('p', { className: 'muted', text: `Why asked: ${approval.why}` }),
      fields,
      buttons,
    );
    item.dataset.approval = approval.id;
    return item;
  }

  private async decide(approval: PendingApproval, decision: ApprovalDecision): Promise<void> {
    const answer = await this.link.user({ kind: 'approval_decide', id: approval.id, decision });
    if (!answer.ok) {
      this.message.textContent = answer.reason;
      return;
    }
    this.message.textContent =
      decision === 'deny'
        ? 'Denied: the agent is told so.'
        : decision === 'always'
          ? `Allowed on ${approval.origin} from now on (saved in the policy); the agent may retry.`
          : 'Allowed once: the agent’s retry runs it.';
    if (answer.result.kind === 'approvals') this.render(answer.result.pending);
  }
}
