/** `batch`: several actions of one session from a JSON file (or stdin), run in order. */
import { readFileSync } from 'node:fs';
import { usageError } from '../cli-error';
import { defineAction, required } from './grammar';

/** The steps of a batch file: a list of {action, params}, or {"steps": that list}. */
function stepsOf(text: string, source: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw usageError(
      `${source} is not JSON`,
      'Give a list like [{"action":"click","params":{"target":"el3"}}]',
    );
  }
  if (Array.isArray(parsed)) return parsed;
  if (typeof parsed === 'object' && parsed !== null && 'steps' in parsed) return parsed.steps;
  throw usageError(
    `${source} holds no list of steps`,
    'Give a list like [{"action":"click","params":{"target":"el3"}}]',
  );
}

export const batch = defineAction({
  action: 'batch',
  path: ['batch'],
  args: [required('file')],
  options: {},
  call([file]) {
    let text: string;
    try {
      text = readFileSync(file === '-' ? 0 : file, 'utf8');
    } catch (error) {
      throw usageError(`cannot read ${file === '-' ? 'stdin' : file}: ${(error as Error).message}`);
    }
    return { action: 'batch', params: { steps: stepsOf(text, file === '-' ? 'stdin' : file) } };
  },
  help: () => ({
    description: 'run several actions in order, paced as usual, stopping at the first failure',
    args: { file: 'a JSON file of [{"action": …, "params": {…}}, …], or - for stdin' },
    options: {},
    examples: [
      'bproxy batch -s m4q7z2 steps.json',
      `echo '[{"action":"fill","params":{"target":"el2","value":"ada"}},{"action":"click","params":{"target":"el3"}}]' | bproxy batch -s m4q7z2 -`,
    ],
    reference: [
      {
        usage: '`bproxy -s ID batch FILE\\|-`',
        does: 'several actions in order (JSON `[{action, params}…]`), stopping at the first failure; each step paced and checked as if alone',
      },
    ],
  }),
});
