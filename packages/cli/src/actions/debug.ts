/** `debug …` and `call`: looking inside the daemon, and the escape hatch to any action. */
import { usageError } from '../cli-error';
import { compact } from '../parsers';
import { defineAction, int, optional, required } from './grammar';

export const debugLast = defineAction({
  path: ['debug', 'last'],
  args: [],
  options: { limit: int('--limit <n>', 1, 200) },
  call: (_args, opts) => ({ action: 'debug.last', params: compact({ limit: opts.limit }) }),
});

export const debugStatus = defineAction({
  path: ['debug', 'status'],
  args: [],
  options: {},
  call: () => ({ action: 'debug.status', params: {} }),
});

export const debugLog = defineAction({
  path: ['debug', 'log'],
  args: [],
  options: { limit: int('--limit <n>', 1, 500) },
  call: (_args, opts) => ({ action: 'debug.log', params: compact({ limit: opts.limit }) }),
});

export const call = defineAction({
  path: ['call'],
  args: [required('action'), optional('params')],
  options: {},
  call([action, raw]) {
    let params: unknown = {};
    if (raw !== undefined) {
      try {
        params = JSON.parse(raw);
      } catch {
        throw usageError(`params must be a JSON object, got ${JSON.stringify(raw)}`);
      }
    }
    if (typeof params !== 'object' || params === null || Array.isArray(params))
      throw usageError('params must be a JSON object like {"limit":5}');
    return { action, params: params as Record<string, unknown> };
  },
});
