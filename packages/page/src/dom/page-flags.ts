/**
 * Short flags a snapshot line carries when its text may be aimed at the model rather than at the
 * person looking at the page: text written at an AI assistant ("ignore previous instructions", "you
 * are an AI", "system prompt", chat-template markers), and a control a person cannot see or whose
 * label is stuffed. A seat belt, not a proof: wording the patterns do not know passes unflagged, and
 * an article about prompt injection is flagged. What is flagged is listed in docs/snapshot.md and
 * docs/security.md (section 5).
 */

/** Appended to a line (or a link) whose text addresses an AI assistant. */
export const FLAG_AIMED_AT_AI = '(aimed at AI)';

/** Appended to a control or link a person cannot see: `(hidden: off the page)`. */
export function hiddenFlag(reason: string): string {
  return `(hidden: ${reason})`;
}

/**
 * Appended to a control, link or heading whose words people see are under `aria-hidden="true"` and
 * missing from its name (aria-hidden-words.ts): `(aria-hidden: shows "Cancel")`.
 */
export function ariaHiddenFlag(shown: string): string {
  const words = shown.length <= 40 ? shown : `${shown.slice(0, 39)}…`;
  return `(aria-hidden: shows ${JSON.stringify(words)})`;
}

/** An `aria-label` (or `aria-labelledby` text) longer than this is stuffed: the line shows 80 characters. */
export const LONG_LABEL = 150;

const AI = String.raw`(?:an? )?(?:ai|a\.i\.|llm|large language model|language model|chatbot|ai assistant|ai agent|ai model)`;

/** Phrases that address an AI assistant, each in one sentence (case-insensitive). */
const AIMED_AT_AI: readonly RegExp[] = [
  // "Ignore (all) previous instructions", "disregard the above prompt", "forget your rules".
  /\b(?:ignore|disregard|forget|override)\b[^.!?\n]{0,30}?\b(?:previous|prior|preceding|above|earlier|all|any|your|the system)\b[^.!?\n]{0,20}?\b(?:instructions?|prompts?|directions|directives|rules|guidelines)\b/i,
  // "system prompt", and "system message:" or "developer instructions:" introducing text.
  /\bsystem prompt\b|\b(?:system|developer) (?:message|instructions?)\s*:/i,
  // "You are an AI", "you are now a language model".
  new RegExp(String.raw`\byou are (?:now )?${AI}\b`, 'i'),
  // "If you are an AI …", "note to AI assistants", "attention LLM".
  new RegExp(
    String.raw`\b(?:if you are|you're|note to|message to|attention|dear|hey|instructions? (?:for|to)) ${AI}s?\b`,
    'i',
  ),
  // "new instructions:", "important instructions for the assistant".
  /\bnew instructions\s*:/i,
  // Chat-template and prompt markers.
  /<\|im_start\|>|<\|system\|>|\[\/?INST\]|<<\/?SYS>>|<\/?system>/i,
];

/** Whether `text` addresses an AI assistant (one of the patterns above). */
export function aimedAtAi(text: string): boolean {
  return AIMED_AT_AI.some((pattern) => pattern.test(text));
}

/** ` (aimed at AI)` when `text` addresses an AI assistant, else ''. */
export function aiFlag(text: string): string {
  return aimedAtAi(text) ? ` ${FLAG_AIMED_AT_AI}` : '';
}
