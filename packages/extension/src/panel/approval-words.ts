/**
 * Approvals in a person's words (no DOM here): what a class of action means, what exactly would happen
 * ("Click “Place order”"), and the chat's line under a tool the daemon held for the person's decision.
 */
import type { ActionClass, PendingApproval } from '@bproxy/protocol';

/** What a class of action means, for a person. */
export const CLASS_TITLES: Record<ActionClass, string> = {
  submit: 'Pay or submit',
  send: 'Send',
  delete: 'Delete',
  upload: 'Upload a file',
  download: 'Download a file',
  state_export: 'Export sign-in state or cookies',
  first_visit: 'First visit to a site',
};

const ACTION_WORDS: Record<string, string> = {
  click: 'Click',
  press: 'Press Enter in',
  upload: 'Attach a file to',
  'state.save': 'Save the sign-in state of',
  'cookies.list': 'Read the cookies of',
  navigate: 'Open',
  'tab.open': 'Open',
};

/** "Click “Place order”" — the action and the element's name, as a person reads them. */
export function approvalWhat(approval: PendingApproval): string {
  const verb = ACTION_WORDS[approval.action] ?? approval.action;
  return approval.name === '' ? verb : `${verb} “${approval.name}”`;
}

/**
 * A tool the daemon held for the person's decision, in words: what waits (the daemon's sentence up to
 * "waits"/"is denied"), and where to decide.
 */
export function heldWords(text: string): string {
  const said = text.replace(/^APPROVAL_REQUIRED:\s*/, '');
  if (said.startsWith('a person denied')) return 'You denied this action: it was not run.';
  const what = /^(.*?) waits for a person's decision/.exec(said)?.[1];
  return `Waiting for your decision${what === undefined ? '' : ` — ${what}`}: not run until you choose Allow once, Always on this site or Deny at the top of this panel.`;
}
