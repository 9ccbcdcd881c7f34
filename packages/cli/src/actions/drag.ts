/** `drag el3 el7 [--at X,Y]`: a trusted drag of one element onto another (or a point in it). */
import { usageError } from '../cli-error';
import { compact, elementTarget } from '../parsers';
import { defineAction, required, text } from './grammar';

function point(value: string | undefined): { x: number; y: number } | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+(?:\.\d+)?),(\d+(?:\.\d+)?)$/.exec(value.trim());
  if (match === null)
    throw usageError(`--at takes X,Y in CSS pixels from the element's top-left, got "${value}"`);
  return { x: Number(match[1]), y: Number(match[2]) };
}

export const drag = defineAction({
  action: 'drag',
  path: ['drag'],
  args: [required('element'), required('onto')],
  options: { at: text('--at <x,y>') },
  call: ([from, onto], opts) => ({
    action: 'drag',
    params: compact({
      target: elementTarget(from, undefined, true),
      to: elementTarget(onto, undefined, true),
      at: point(opts.at),
    }),
  }),
  help: () => ({
    description: 'drag an element onto another, as a person does (sortable lists, drag and drop)',
    args: { element: 'the handle to drag, e.g. el3', onto: 'the handle to drop on, e.g. el7' },
    options: { at: "drop at X,Y CSS pixels from the target's top-left (default: its centre)" },
    examples: ['bproxy drag -s m4q7z2 el3 el7', 'bproxy drag -s m4q7z2 el3 el7 --at 10,40'],
  }),
});
