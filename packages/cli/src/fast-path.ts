/**
 * The fast path: an ordinary action line (`bproxy -s m4q7z2 click el3`) read without commander, so
 * that a run loads only what one action needs — this reader, the grammar and the client. It reads the
 * same definitions as the commander tree (actions/, global-options.ts) and accepts only the lines it
 * reads exactly as commander would. Anything else answers undefined and goes to the full program
 * (program.ts), which gives commander's own answer: help and version flags, `--`, groups of short
 * flags, a value that starts with a dash, an option given twice, an unknown word, and every usage
 * error. Tests hold the two paths to the same calls, output and exit codes.
 */
import type { Env } from '@bproxy/client';
import { ACTION_COMMANDS } from './actions';
import {
  optionNames,
  readInt,
  type ActionCall,
  type ActionCommand,
  type ArgSpec,
  type OptionSpec,
  type OptionSpecs,
} from './actions/grammar';
import { GLOBAL_OPTIONS, resolveGlobals, type GlobalOptions, type GlobalValues } from './global-options';

export type FastLine =
  | { readonly kind: 'version' }
  | { readonly kind: 'action'; readonly globals: GlobalOptions; readonly call: ActionCall };

type Raw = Record<string, string | true>;
type Value = string | number | true;

interface Match {
  readonly key: string;
  readonly spec: OptionSpec;
  /** The value written in the same word (`--limit=5`, `-sm4q7z2`), if any. */
  readonly inline: string | undefined;
}

/** Which option of `specs` the word `arg` names, the way commander finds it; undefined if none. */
function matchOption(specs: OptionSpecs, arg: string): Match | undefined {
  for (const [key, spec] of Object.entries(specs)) {
    const { short, long } = optionNames(spec);
    if (arg === long || arg === short) return { key, spec, inline: undefined };
    if (spec.value.kind === 'flag') continue;
    if (arg.startsWith(`${long}=`)) return { key, spec, inline: arg.slice(long.length + 1) };
    if (short !== undefined && arg.startsWith(short)) return { key, spec, inline: arg.slice(2) };
  }
  return undefined;
}

/** The raw option values checked and converted as commander's parsers would; undefined if one fails. */
function convert(specs: OptionSpecs, raw: Raw): Record<string, Value> | undefined {
  const values: Record<string, Value> = {};
  for (const [key, given] of Object.entries(raw)) {
    const spec = specs[key];
    if (spec === undefined) return undefined;
    const { value } = spec;
    if (value.kind === 'int') {
      const parsed = typeof given === 'string' ? readInt('', value.min, value.max, given) : '';
      if (typeof parsed === 'string') return undefined;
      values[key] = parsed;
    } else if (value.kind === 'choice' && (given === true || !value.choices.includes(given))) {
      return undefined;
    } else {
      values[key] = given;
    }
  }
  return values;
}

type ArgValue = string | string[] | undefined;

/** The argument values of `specs` from the positional words, as commander hands them to an action. */
function argumentValues(specs: readonly ArgSpec[], words: readonly string[]): ArgValue[] | undefined {
  const values: ArgValue[] = [];
  let next = 0;
  for (const spec of specs) {
    if (spec.arity === 'variadic') {
      values.push(words.slice(next));
      next = words.length;
      continue;
    }
    const word = words[next];
    if (word === undefined) {
      if (spec.arity === 'required') return undefined;
      values.push(undefined);
      continue;
    }
    if (spec.choices !== undefined && !spec.choices.includes(word)) return undefined;
    values.push(word);
    next++;
  }
  return next === words.length ? values : undefined;
}

/**
 * The commands whose words start with `words`. (Loops rather than filter/every: the engine compiles
 * each array builtin on its first call, which the one call of a CLI run would pay for.)
 */
function commandsUnder(words: readonly string[]): ActionCommand[] {
  const under: ActionCommand[] = [];
  for (const command of ACTION_COMMANDS) {
    let same = true;
    for (let i = 0; i < words.length; i++) if (command.path[i] !== words[i]) same = false;
    if (same) under.push(command);
  }
  return under;
}

/** Reads `args` (argv without the runtime and the script); undefined: a line for the full program. */
export function readFastLine(args: readonly string[], env: Env): FastLine | undefined {
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) return { kind: 'version' };
  const words: string[] = [];
  let command: ActionCommand | undefined;
  const positionals: string[] = [];
  const globals: Raw = {};
  const options: Raw = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (!arg.startsWith('-')) {
      if (command !== undefined) {
        positionals.push(arg);
        continue;
      }
      words.push(arg);
      const under = commandsUnder(words);
      if (under.length === 0) return undefined;
      for (const candidate of under) if (candidate.path.length === words.length) command = candidate;
      continue;
    }
    // Commander reads the global options wherever they are, before the command's own.
    const global = matchOption(GLOBAL_OPTIONS, arg);
    const match = global ?? (command === undefined ? undefined : matchOption(command.options, arg));
    if (match === undefined) return undefined;
    const into = global === undefined ? options : globals;
    if (match.key in into) return undefined;
    if (match.spec.value.kind === 'flag') {
      into[match.key] = true;
    } else if (match.inline !== undefined) {
      into[match.key] = match.inline;
    } else {
      const value = args[++i];
      if (value === undefined || value.startsWith('-')) return undefined;
      into[match.key] = value;
    }
  }
  if (command === undefined) return undefined;
  const argValues = argumentValues(command.args, positionals);
  const optionValues = convert(command.options, options);
  const globalValues = convert(GLOBAL_OPTIONS, globals);
  if (argValues === undefined || optionValues === undefined || globalValues === undefined) return undefined;
  let call: ActionCall;
  try {
    call = command.call(argValues, optionValues);
  } catch {
    // A usage error: commander's path words it, with its own checks first.
    return undefined;
  }
  return { kind: 'action', globals: resolveGlobals(globalValues as GlobalValues, env), call };
}
