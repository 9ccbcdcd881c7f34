/**
 * An action command (a command line that sends one protocol action) as data: its words, its
 * arguments, its options with the values they take, the call it sends, and its help. Two parsers read
 * the same definitions: commander's, which shows the help (commands/action-command.ts), and the fast
 * path's (fast-path.ts), which runs an ordinary action without loading commander at all. This module
 * and the definitions are therefore free of commander; the help texts sit in functions, so the fast
 * path never builds them.
 */

/** How a successful answer is shown: raw data, or a file written from it. */
export type Render =
  { readonly kind: 'data' } | { readonly kind: 'screenshot'; readonly out: string | undefined };

/** What one command line sends: an action of the protocol, its params, and how to show the answer. */
export interface ActionCall {
  readonly action: string;
  readonly params: Record<string, unknown>;
  readonly render?: Render;
}

/** One row of the README's CLI reference (markdown): a command line, and what it does. */
export interface ReferenceRow {
  readonly usage: string;
  readonly does: string;
}

export type OptionValue =
  | { readonly kind: 'flag' }
  | { readonly kind: 'text' }
  /** An integer in [min, max], written as plain digits ("12px", "1e3" and "3.5" are refused). */
  | { readonly kind: 'int'; readonly min: number; readonly max: number }
  | { readonly kind: 'choice'; readonly choices: readonly string[] };

export interface OptionSpec<V extends OptionValue = OptionValue> {
  /** Commander's flags: `--count <n>` for an option with a value, `--full-page` for a flag. */
  readonly flags: string;
  readonly value: V;
}

type ValueOf<V extends OptionValue> = V extends { readonly kind: 'flag' }
  ? true
  : V extends { readonly kind: 'int' }
    ? number
    : V extends { readonly kind: 'choice'; readonly choices: readonly (infer C)[] }
      ? C
      : string;

/** The parsed options, keyed like commander keys them (`--max-chars` → maxChars); absent when not given. */
export type OptionValues<O extends OptionSpecs> = { readonly [K in keyof O]?: ValueOf<O[K]['value']> };

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

export interface ArgSpec {
  readonly name: string;
  readonly arity: 'required' | 'optional' | 'variadic';
  readonly choices?: readonly string[];
}

type ArgValue<Arity extends ArgSpec['arity']> = Arity extends 'variadic'
  ? string[]
  : Arity extends 'required'
    ? string
    : string | undefined;

/** The parsed arguments in order; a variadic one is an array (empty when none was given). */
export type ArgValues<A extends readonly ArgSpec[]> = { readonly [I in keyof A]: ArgValue<A[I]['arity']> };

/** The help texts of an action command: one for each of its arguments and options, and examples. */
export interface ActionHelp<A extends readonly ArgSpec[], O extends OptionSpecs> {
  readonly description: string;
  readonly args: { readonly [K in A[number]['name']]: string };
  readonly options: { readonly [K in keyof O]: string };
  readonly examples: readonly string[];
  /** Text after the examples. */
  readonly after?: string;
  /** Its rows in the README's CLI reference (none when another command's row covers it). */
  readonly reference?: readonly ReferenceRow[];
}

export interface ActionCommand<
  A extends readonly ArgSpec[] = readonly ArgSpec[],
  O extends OptionSpecs = OptionSpecs,
> {
  /** The protocol action the command sends; undefined for `call`, which sends any. */
  readonly action: string | undefined;
  /** Other actions it sends, chosen by its arguments (`network get REQ` sends network.get). */
  readonly alsoSends?: readonly string[];
  /** The command words: ['click'], or ['session', 'create'] under a command group. */
  readonly path: readonly [string] | readonly [string, string];
  readonly args: A;
  readonly options: O;
  /**
   * The call a parsed line sends; throws a usage error (cli-error.ts) for a line that makes no sense.
   * A method, so that every definition fits the plain ActionCommand of the table.
   */
  call(args: ArgValues<A>, options: OptionValues<O>): ActionCall;
  /** Its help; a function, so that a line the fast path runs never builds the texts. */
  help(): ActionHelp<A, O>;
}

/** The help of a command group (`session`, `tab`, `debug`): what it is for, and examples. */
export interface GroupHelp {
  readonly description: string;
  readonly examples: readonly string[];
  readonly reference?: readonly ReferenceRow[];
}

/** A command whose subcommands are action commands: `session create`, `tab open`, … */
export interface ActionGroup {
  readonly name: string;
  readonly commands: readonly ActionCommand[];
  help(): GroupHelp;
}

/** The "Examples:" block commander prints after a command's help. */
export function examples(...lines: readonly string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;
}

/** Keeps the literal names of arguments and options, which the help texts are checked against. */
export function defineAction<const A extends readonly ArgSpec[], const O extends OptionSpecs>(
  command: ActionCommand<A, O>,
): ActionCommand<A, O> {
  return command;
}

export const flag = (flags: string): OptionSpec<{ readonly kind: 'flag' }> => ({
  flags,
  value: { kind: 'flag' },
});

export const text = (flags: string): OptionSpec<{ readonly kind: 'text' }> => ({
  flags,
  value: { kind: 'text' },
});

export const int = (flags: string, min: number, max: number) =>
  ({ flags, value: { kind: 'int', min, max } }) as const;

export const choice = <const C extends readonly string[]>(flags: string, choices: C) =>
  ({ flags, value: { kind: 'choice', choices } }) as const;

export const required = <const N extends string, const C extends readonly string[] = never>(
  name: N,
  choices?: C,
) => ({ name, arity: 'required', ...(choices === undefined ? {} : { choices }) }) as const;

export const optional = <const N extends string>(name: N) => ({ name, arity: 'optional' }) as const;

export const variadic = <const N extends string>(name: N) => ({ name, arity: 'variadic' }) as const;

/** The names of an option: `-s, --session <id>` → -s and --session; `--count <n>` → --count. */
export function optionNames(spec: OptionSpec): { readonly short: string | undefined; readonly long: string } {
  // String scanning rather than a regex or split: this runs at every start of the CLI (fast-path.ts),
  // where the engine's first regex or array builtin costs more than the whole line takes to read.
  const { flags } = spec;
  const start = flags.indexOf('--');
  const end = flags.indexOf(' ', start);
  return {
    short: flags[1] === '-' ? undefined : flags.slice(0, 2),
    long: end < 0 ? flags.slice(start) : flags.slice(start, end),
  };
}

/**
 * `raw` as an integer in [min, max], or the sentence that says why not. Both parsers use it: commander
 * turns the sentence into its usage error, the fast path hands such a line to commander.
 */
export function readInt(name: string, min: number, max: number, raw: string): number | string {
  if (!/^-?[0-9]+$/.test(raw)) return `${name} must be an integer, got "${raw}"`;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min || value > max)
    return `${name} must be between ${min} and ${max}, got ${raw}`;
  return value;
}
