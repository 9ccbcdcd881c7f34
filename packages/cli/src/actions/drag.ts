/**
 * `drag el3 el7 [--at X,Y]`: a trusted drag of one element onto another (or a point in it); `drag
 * FILE… --to el7`: files dropped onto a drop zone (the action `drop`, read only from allowed folders).
 */
import { isAbsolute, sep } from 'node:path';
import { usageError } from '../cli-error';
import { compact, elementTarget } from '../parsers';
import { defineAction, flag, text, variadic } from './grammar';

function point(value: string | undefined): { x: number; y: number } | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+(?:\.\d+)?),(\d+(?:\.\d+)?)$/.exec(value.trim());
  if (match === null)
    throw usageError(`--at takes X,Y in CSS pixels from the element's top-left, got "${value}"`);
  return { x: Number(match[1]), y: Number(match[2]) };
}

export const drag = defineAction({
  action: 'drag',
  alsoSends: ['drop'],
  path: ['drag'],
  args: [variadic('args')],
  options: { to: text('--to <handle>'), at: text('--at <x,y>'), diff: flag('--diff') },
  call([args], opts) {
    const at = point(opts.at);
    if (opts.to !== undefined) {
      if (args.length === 0) throw usageError('give at least one file to drop');
      // Made absolute, never normalized: a ".." reaches the daemon, which refuses it by name.
      const files = args.map((f) => (isAbsolute(f) ? f : `${process.cwd()}${sep}${f}`));
      return {
        action: 'drop',
        params: compact({ target: elementTarget(opts.to, undefined, true), files, at }),
      };
    }
    const [from, onto, ...rest] = args;
    if (from === undefined || onto === undefined || rest.length > 0)
      throw usageError('drag takes two handles (drag el3 el7), or files and --to (drag FILE --to el7)');
    return {
      action: 'drag',
      params: compact({
        target: elementTarget(from, undefined, true),
        to: elementTarget(onto, undefined, true),
        at,
        diff: opts.diff,
      }),
    };
  },
  help: () => ({
    description:
      'drag an element onto another as a person does (sortable lists, drag and drop), or drop files',
    args: { args: 'the handle to drag and the handle to drop on (el3 el7), or files with --to' },
    options: {
      to: 'drop the FILEs onto this handle (a drop zone)',
      at: "drop at X,Y CSS pixels from the target's top-left (default: its centre)",
      diff: 'also answer the snapshot diff the drag caused (as "diff")',
    },
    examples: [
      'bproxy drag -s m4q7z2 el3 el7',
      'bproxy drag -s m4q7z2 el3 el7 --at 10,40',
      'bproxy drag -s m4q7z2 report.pdf --to el9',
    ],
    after: `Files are read only from the folders upload may read (the session's folder, files.json,
--allow-files); ".." and links out are refused (PATH_NOT_ALLOWED) before anything is read. Output: the
effects, as after a click (with --diff: the snapshot diff).\n`,
    reference: [
      {
        usage: '`bproxy -s ID drag el3 el7 [--at X,Y]`',
        does: 'drag el3 onto el7 (pointer sortables, HTML5)',
      },
      { usage: '`bproxy -s ID drag FILE… --to el7`', does: 'drop files onto a drop zone' },
    ],
  }),
});
