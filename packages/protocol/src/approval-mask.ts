/** What the approvals show instead of a secret field's value (zod-free: the page bundle uses it). */
export const APPROVAL_MASK = '••••';
