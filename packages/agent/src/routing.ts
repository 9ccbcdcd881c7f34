/**
 * Model routing, per the seed: a message that asks for comprehension or analysis goes to the strong
 * model, anything else (clicks, navigation, form filling: deterministic tool calls) to the fast one.
 * Analysis words win over action verbs ("navigate to X and summarize it" is analysis). The `model`
 * field of a message overrides the rule.
 */
import type { ModelChoice } from '@bproxy/protocol';

const ANALYSIS =
  /\b(what|why|how|who|which|summar(?:y|i[sz]e)|describe|analy[sz]e|analysis|explain|compare|review|assess|evaluate|check|find bugs?|tell me about)\b|\bread\b.*\band\b/i;

export type ModelTier = 'fast' | 'strong';

export function routeMessage(text: string, choice: ModelChoice | undefined): ModelTier {
  if (choice === 'fast' || choice === 'strong') return choice;
  return ANALYSIS.test(text) ? 'strong' : 'fast';
}
