/**
 * The command of an action that has no hand-written grammar, derived from the protocol: its words
 * from the action's name (`tab.pin` → `tab pin`), an option per top-level property of its params'
 * JSON Schema (integer → an integer with the schema's bounds, boolean → a flag, enum → a choice,
 * string → text, anything else → JSON), `target` as an optional element handle argument with
 * `--selector`, and its help from the action's summary and the properties' descriptions. Plain data in,
 * plain data out: the schemas come from the protocol where zod is loaded anyway (commands/derived.ts).
 */
import { usageError } from '../cli-error';
import { elementTarget } from '../parsers';
import {
  choice,
  flag,
  int,
  optional,
  text,
  type ActionCommand,
  type ActionGroup,
  type ArgSpec,
  type OptionSpec,
  type ReferenceRow,
} from './grammar';
import { entryName, isCustom, isGroup, type Section, type TreeEntry } from './index';

/** An action as the protocol describes it: its name, its summary, its params' JSON Schema. */
export interface DerivedSource {
  readonly action: string;
  readonly summary: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** Names the CLI itself gives an option: every command takes these (global-options.ts, --help). */
const RESERVED = new Set(['session', 'timeout', 'pretty', 'json', 'help', 'version']);

type Kind = 'int' | 'flag' | 'choice' | 'text' | 'json';

interface Property {
  readonly key: string;
  readonly kind: Kind;
  readonly spec: OptionSpec;
  readonly help: string;
  readonly required: boolean;
}

const record = (value: unknown): Readonly<Record<string, unknown>> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

const kebab = (key: string): string => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

const bound = (value: unknown, fallback: number): number =>
  typeof value === 'number' && Number.isSafeInteger(value) ? value : fallback;

/** The option a property of the schema becomes. */
function optionOf(key: string, schema: Readonly<Record<string, unknown>>): [Kind, OptionSpec] {
  const long = `--${kebab(key)}`;
  const values = schema.enum;
  if (Array.isArray(values) && values.every((v): v is string => typeof v === 'string'))
    return ['choice', choice(`${long} <value>`, values)];
  if (schema.type === 'integer') {
    const min = bound(schema.minimum, Number.MIN_SAFE_INTEGER);
    const max = bound(schema.maximum, Number.MAX_SAFE_INTEGER);
    const low = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : min;
    const high = typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - 1 : max;
    return ['int', int(`${long} <n>`, low, high)];
  }
  if (schema.type === 'boolean') return ['flag', flag(long)];
  if (schema.type === 'string') return ['text', text(`${long} <text>`)];
  return ['json', text(`${long} <json>`)];
}

function helpOf(
  kind: Kind,
  spec: OptionSpec,
  schema: Readonly<Record<string, unknown>>,
  required: boolean,
): string {
  const described = typeof schema.description === 'string' ? schema.description : undefined;
  const generic =
    kind === 'int' && spec.value.kind === 'int' && spec.value.max < Number.MAX_SAFE_INTEGER
      ? `an integer (${spec.value.min}-${spec.value.max})`
      : kind === 'json'
        ? 'a JSON value'
        : '';
  const help = described ?? generic;
  return required ? `${help}${help === '' ? '' : ' '}(required)` : help;
}

/** The options of the schema's properties other than `target`. */
function propertiesOf(action: string, params: Readonly<Record<string, unknown>>): Property[] {
  const required = new Set(Array.isArray(params.required) ? params.required : []);
  const properties: Property[] = [];
  for (const [key, value] of Object.entries(record(params.properties))) {
    if (key === 'target') continue;
    if (!/^[a-z][a-zA-Z0-9]*$/.test(key) || RESERVED.has(key))
      throw new Error(
        `${action}: the property "${key}" makes no CLI option; give the action a hand-written grammar`,
      );
    const schema = record(value);
    const [kind, spec] = optionOf(key, schema);
    properties.push({
      key,
      kind,
      spec,
      help: helpOf(kind, spec, schema, required.has(key)),
      required: required.has(key),
    });
  }
  return properties;
}

/** `Click an element` → `click an element` (the CLI's help starts in lower case; acronyms stay). */
function lowerFirst(sentence: string): string {
  return /^[A-Z][a-z]/.test(sentence) ? `${sentence[0]?.toLowerCase() ?? ''}${sentence.slice(1)}` : sentence;
}

function pathOf(action: string): readonly [string] | readonly [string, string] {
  const words = action.split('.').map(kebab);
  const [first, second, ...rest] = words;
  if (first === undefined || rest.length > 0)
    throw new Error(`${action}: an action name of more than two words; give it a hand-written grammar`);
  return second === undefined ? [first] : [first, second];
}

function referenceOf(
  path: readonly string[],
  target: boolean,
  properties: readonly Property[],
  does: string,
): ReferenceRow {
  const words = [`bproxy -s ID ${path.join(' ')}`];
  if (target) words.push('[el3]');
  for (const p of properties) {
    const value =
      p.spec.value.kind === 'choice'
        ? p.spec.value.choices.join('\\|')
        : p.kind === 'flag'
          ? undefined
          : p.kind === 'int'
            ? 'N'
            : 'V';
    const option = value === undefined ? `--${kebab(p.key)}` : `--${kebab(p.key)} ${value}`;
    words.push(p.required ? option : `[${option}]`);
  }
  return { usage: `\`${words.join(' ')}\``, does };
}

/** The command for `source`, an action without a hand-written grammar. */
export function deriveCommand(source: DerivedSource): ActionCommand {
  const { action, params } = source;
  const path = pathOf(action);
  const properties = propertiesOf(action, params);
  const target = 'target' in record(params.properties);
  const targetRequired = Array.isArray(params.required) && params.required.includes('target');
  // A property of its own named `selector` takes the name; the target is then a handle only.
  const selectorOption = target && !properties.some((p) => p.key === 'selector');
  const options: Record<string, OptionSpec> = {};
  const optionHelp: Record<string, string> = {};
  if (selectorOption) {
    options.selector = text('--selector <css>');
    optionHelp.selector = 'a CSS selector instead of a handle';
  }
  for (const p of properties) {
    options[p.key] = p.spec;
    optionHelp[p.key] = p.help;
  }
  const args: ArgSpec[] = target ? [optional('element')] : [];
  const argHelp: Record<string, string> = target ? { element: 'element handle, e.g. el3' } : {};
  const description = lowerFirst(source.summary);
  return {
    action,
    path,
    args,
    options,
    call(values, opts) {
      const out: Record<string, unknown> = {};
      if (target) {
        const handle = values[0];
        const selector = selectorOption ? opts.selector : undefined;
        const chosen = elementTarget(
          typeof handle === 'string' ? handle : undefined,
          selector === undefined ? undefined : String(selector),
          targetRequired,
        );
        if (chosen !== undefined) out.target = chosen;
      }
      for (const p of properties) {
        const given = opts[p.key];
        if (given === undefined) continue;
        out[p.key] = p.kind === 'json' ? parseJson(p.key, String(given)) : given;
      }
      return { action, params: out };
    },
    help: () => ({
      description,
      args: argHelp,
      options: optionHelp,
      examples: [`bproxy ${path.join(' ')} -s m4q7z2`],
      reference: [referenceOf(path, target, properties, description)],
    }),
  };
}

function parseJson(key: string, raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw usageError(`--${kebab(key)} takes a JSON value, got ${JSON.stringify(raw)}`);
  }
}

/** A group for derived commands whose first word no hand-written group has. */
function derivedGroup(name: string, commands: readonly ActionCommand[]): ActionGroup {
  const words = commands.map((c) => c.path[1] ?? '');
  return {
    name,
    commands,
    help: () => ({
      description: `${name} actions: ${words.join(', ')}`,
      examples: commands.map((c) => `bproxy ${c.path.join(' ')} -s m4q7z2`),
    }),
  };
}

/**
 * The tree with derived commands added: a subcommand joins the hand-written group of its first word,
 * anything else goes to a section of its own at the end. A word taken by another command is an error.
 */
export function withDerived(
  sections: readonly Section[],
  derived: readonly ActionCommand[],
): readonly Section[] {
  if (derived.length === 0) return sections;
  const taken = new Map<string, TreeEntry>();
  for (const section of sections) for (const entry of section.entries) taken.set(entryName(entry), entry);
  const joining = new Map<string, ActionCommand[]>();
  const newGroups = new Map<string, ActionCommand[]>();
  const more: TreeEntry[] = [];
  for (const command of derived) {
    const [word, sub] = command.path;
    const existing = taken.get(word);
    if (sub === undefined) {
      if (existing !== undefined) throw new Error(`the command "${word}" exists already`);
      more.push(command);
    } else if (existing !== undefined && !isCustom(existing) && isGroup(existing)) {
      joining.set(word, [...(joining.get(word) ?? []), command]);
    } else if (existing === undefined) {
      newGroups.set(word, [...(newGroups.get(word) ?? []), command]);
    } else {
      throw new Error(`the command "${word}" is not a group: ${command.action ?? ''} cannot go under it`);
    }
  }
  for (const [name, commands] of newGroups) more.push(derivedGroup(name, commands));
  const grown = sections.map((section) => ({
    heading: section.heading,
    entries: section.entries.map((entry) => {
      const extra = isGroup(entry) ? joining.get(entry.name) : undefined;
      return extra === undefined || !isGroup(entry)
        ? entry
        : { name: entry.name, help: entry.help, commands: [...entry.commands, ...extra] };
    }),
  }));
  return more.length === 0
    ? grown
    : [...grown, { heading: 'More actions (from the protocol):', entries: more }];
}
