/** `debug …` and `call`: looking inside the daemon, and the escape hatch to any action. */
import { usageError } from '../cli-error';
import { compact } from '../parsers';
import { defineAction, int, optional, required, type ActionGroup } from './grammar';

export const debugLast = defineAction({
  action: 'debug.last',
  path: ['debug', 'last'],
  args: [],
  options: { limit: int('--limit <n>', 1, 200) },
  call: (_args, opts) => ({ action: 'debug.last', params: compact({ limit: opts.limit }) }),
  help: () => ({
    description: 'the last request traces (ring of 200)',
    args: {},
    options: { limit: 'how many (1-200)' },
    examples: ['bproxy debug last', 'bproxy debug last --limit 5 --pretty'],
  }),
});

export const debugStatus = defineAction({
  action: 'debug.status',
  path: ['debug', 'status'],
  args: [],
  options: {},
  call: () => ({ action: 'debug.status', params: {} }),
  help: () => ({
    description: 'daemon, browsers and sessions at a glance',
    args: {},
    options: {},
    examples: ['bproxy debug status --pretty'],
  }),
});

export const debugLog = defineAction({
  action: 'debug.log',
  path: ['debug', 'log'],
  args: [],
  options: { limit: int('--limit <n>', 1, 500) },
  call: (_args, opts) => ({ action: 'debug.log', params: compact({ limit: opts.limit }) }),
  help: () => ({
    description: "the browser driver's own recent log",
    args: {},
    options: { limit: 'how many entries (1-500)' },
    examples: ['bproxy debug log -s m4q7z2 --limit 50'],
  }),
});

export const DEBUG: ActionGroup = {
  name: 'debug',
  commands: [debugLast, debugStatus, debugLog],
  help: () => ({
    description: "the daemon's traces and status, the browser driver's log",
    examples: ['bproxy debug status --pretty', 'bproxy debug last --limit 5'],
    reference: [
      { usage: '`bproxy debug last\\|status\\|log`', does: "traces, daemon state, the driver's own log" },
    ],
  }),
};

export const call = defineAction({
  action: undefined,
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
  help: () => ({
    description: 'send any protocol action with JSON params',
    args: {
      action: 'action name, e.g. debug.status or click',
      params: 'params as a JSON object (default {})',
    },
    options: {},
    examples: [
      'bproxy call debug.status',
      'bproxy call click -s m4q7z2 \'{"target":"el3"}\'',
      'bproxy call text -s m4q7z2 \'{"maxChars":500}\'',
    ],
    reference: [
      { usage: '`bproxy call ACTION [-s ID] [JSON]`', does: 'any protocol action with raw params' },
    ],
  }),
});
