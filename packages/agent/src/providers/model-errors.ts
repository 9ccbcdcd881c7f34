/**
 * A provider's failure as the user should read it: MODEL_ERROR with what happened (the HTTP status
 * and the provider's own sentence, or "unreachable"), and never the key — a provider may echo part of
 * it ("Incorrect API key provided: sk-ab***yz"), so the key and anything shaped like one are cut out.
 */
import { AgentError, clip } from '../errors';

const KEY_SHAPES = /\b(?:sk|sk-ant|sk-proj|sk-or|ghp|gho|github_pat)[-_][A-Za-z0-9*_.-]{4,}/g;

export function scrubSecrets(text: string, key: string | null): string {
  let out = text;
  if (key !== null && key.length >= 4) out = out.split(key).join('[key]');
  return out.replace(KEY_SHAPES, '[key]');
}

interface HttpishError {
  readonly status?: unknown;
  readonly message?: unknown;
  readonly name?: unknown;
}

/** `provider` names the endpoint in the sentence ("the Anthropic API", "http://127.0.0.1:11434/v1"). */
export function modelError(provider: string, error: unknown, key: string | null): AgentError {
  if (error instanceof AgentError) return error;
  const e = (typeof error === 'object' && error !== null ? error : {}) as HttpishError;
  const message = typeof e.message === 'string' ? e.message : String(error);
  const status = typeof e.status === 'number' ? e.status : undefined;
  const name = typeof e.name === 'string' ? e.name : '';
  let sentence: string;
  if (status === 401 || status === 403)
    sentence = `${provider} refused the key (${status}): ${message}. Set it again with \`bproxy agent config --key-stdin\``;
  else if (status === 429) sentence = `${provider} is rate limiting (429): ${message}`;
  else if (status !== undefined) sentence = `${provider} answered ${status}: ${message}`;
  else if (/Connection|ECONNREFUSED|fetch failed/i.test(`${name} ${message}`))
    sentence = `cannot reach ${provider}: ${message}`;
  else if (/Timeout/i.test(name)) sentence = `${provider} did not answer in time`;
  else sentence = `${provider} failed: ${message}`;
  return new AgentError('MODEL_ERROR', clip(scrubSecrets(sentence, key)));
}
