/**
 * Commands derived from the protocol for actions without a hand-written grammar: tried on every real
 * action (each of which has a hand-written command today), an option for each param of the right
 * kind, and calls the protocol's own schema accepts — the same calls as the hand-written commands make.
 */
import { ACTIONS, ACTION_NAMES, parseParams, paramsJsonSchema, type ActionName } from '@bproxy/protocol';
import { describe, expect, it } from 'vitest';
import { deriveCommand, withDerived } from '../../src/actions/derive';
import type { ActionCommand, OptionValue } from '../../src/actions/grammar';
import { ACTION_COMMANDS, SECTIONS, actionCommandsOf, entryName } from '../../src/actions/index';
import { CliError } from '../../src/cli-error';

const derived = (action: ActionName): ActionCommand =>
  deriveCommand({ action, summary: ACTIONS[action].summary, params: paramsJsonSchema(action) });

const handWritten = (action: ActionName): ActionCommand => {
  const command = ACTION_COMMANDS.find((c) => c.action === action);
  if (command === undefined) throw new Error(`no hand-written command sends ${action}`);
  return command;
};

type Schema = Record<string, unknown>;

/** The option kind a param of this JSON Schema must become. */
function expectedValue(schema: Schema): OptionValue | 'json' {
  if (Array.isArray(schema.enum)) return { kind: 'choice', choices: schema.enum as string[] };
  if (schema.type === 'integer')
    return { kind: 'int', min: schema.minimum as number, max: schema.maximum as number };
  if (schema.type === 'boolean') return { kind: 'flag' };
  if (schema.type === 'string') return { kind: 'text' };
  return 'json';
}

describe('a command derived from the protocol', () => {
  it.each(ACTION_NAMES)('%s: its words, an option per param, the element argument for target', (action) => {
    const command = derived(action);
    expect(command.action).toBe(action);
    expect(command.path.join('.')).toBe(action);
    const schema = paramsJsonSchema(action);
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    for (const [key, property] of Object.entries(properties)) {
      if (key === 'target') {
        expect(command.args).toEqual([{ name: 'element', arity: 'optional' }]);
        continue;
      }
      const option = command.options[key];
      expect(option, `${action} ${key}`).toBeDefined();
      const expected = expectedValue(property);
      if (expected === 'json') expect(option?.flags).toMatch(/ <json>$/);
      else expect(option?.value).toEqual(expected);
    }
    if (!('target' in properties)) expect(command.args).toEqual([]);
    const help = command.help();
    expect(help.description).toBe(ACTIONS[action].summary.replace(/^[A-Z](?=[a-z])/, (c) => c.toLowerCase()));
    expect(Object.keys(help.options).sort()).toEqual(Object.keys(command.options).sort());
  });

  // A line of each derived command, and the same request through the hand-written command.
  const SAME_CALLS: readonly [
    ActionName,
    unknown[],
    Record<string, unknown>,
    unknown[],
    Record<string, unknown>,
  ][] = [
    ['click', ['el3'], { button: 'right', clickCount: 2 }, ['el3'], { button: 'right', count: 2 }],
    ['click', [undefined], { selector: 'button.go' }, [undefined], { selector: 'button.go' }],
    ['hover', ['el5'], {}, ['el5'], {}],
    ['text', [undefined], { maxChars: 300, offset: 10 }, [undefined], { maxChars: 300, offset: 10 }],
    ['snapshot', ['el4'], { contains: 'cart' }, ['el4'], { contains: 'cart' }],
    ['select', ['el4'], { values: '["fr","de"]' }, [['el4', 'fr', 'de']], {}],
    ['fill', ['el2'], { value: 'Ada' }, [['el2', 'Ada']], {}],
    [
      'navigate',
      [],
      { url: 'https://example.com', waitUntil: 'load' },
      ['https://example.com'],
      { waitUntil: 'load' },
    ],
    ['wait', ['el3'], { state: 'visible' }, [], { handle: 'el3', state: 'visible' }],
    ['wait', [undefined], { selector: '.done', timeoutMs: 500 }, [], { selector: '.done', timeoutMs: 500 }],
    ['tab.pin', [], { tab: 't2' }, ['t2'], {}],
    ['session.bind', [], { tab: 't2', pacing: 'fast' }, [], { tab: 't2', pacing: 'fast' }],
    ['debug.last', [], { limit: 5 }, [], { limit: 5 }],
    ['dialog', [], { accept: true, promptText: 'yes' }, ['accept'], { text: 'yes' }],
  ];

  it.each(SAME_CALLS)(
    '%s sends what the hand-written command sends, and the schema accepts it',
    (action, args, opts, handArgs, handOpts) => {
      const call = derived(action).call(args as never, opts as never);
      expect(call).toEqual({
        action,
        params: handWritten(action).call(handArgs as never, handOpts as never).params,
      });
      expect(parseParams(action, call.params).ok).toBe(true);
    },
  );

  it('refuses an element that is no handle, and a required target left out, as usage errors', () => {
    expect(() => derived('hover').call(['#q'] as never, {} as never)).toThrow(CliError);
    expect(() => derived('inspect').call([undefined] as never, {} as never)).toThrow(
      /give an element handle/,
    );
    expect(() => derived('select').call(['el4'] as never, { values: '[fr' } as never)).toThrow(
      /--values takes a JSON value/,
    );
  });

  it('is refused for a param the CLI cannot name, rather than shadowing a global option', () => {
    const source = (key: string) => ({
      action: 'cookie.get',
      summary: 'Read a cookie',
      params: { type: 'object', properties: { [key]: { type: 'string' } } },
    });
    expect(() => deriveCommand(source('session'))).toThrow(/hand-written grammar/);
    expect(() => deriveCommand(source('max_age'))).toThrow(/hand-written grammar/);
    expect(() => deriveCommand({ ...source('name'), action: 'a.b.c' })).toThrow(/more than two words/);
  });
});

describe('the tree with derived commands', () => {
  const cookieGet = deriveCommand({
    action: 'cookie.get',
    summary: 'Read a cookie',
    params: { type: 'object', properties: { name: { type: 'string' } } },
  });
  const tabMute = deriveCommand({
    action: 'tab.mute',
    summary: 'Mute a tab',
    params: { type: 'object', properties: {} },
  });
  const zoom = deriveCommand({
    action: 'zoom',
    summary: 'Zoom the page',
    params: { type: 'object', properties: {} },
  });

  it('is the hand-written tree when nothing is derived', () => {
    expect(withDerived(SECTIONS, [])).toBe(SECTIONS);
  });

  it('puts a subcommand in the group of its first word, and the rest in a section of their own', () => {
    const tree = withDerived(SECTIONS, [cookieGet, tabMute, zoom]);
    expect(tree.slice(0, SECTIONS.length).map((s) => s.heading)).toEqual(SECTIONS.map((s) => s.heading));
    const last = tree[tree.length - 1];
    expect(last?.entries.map(entryName)).toEqual(['zoom', 'cookie']);
    expect(actionCommandsOf(tree).map((c) => c.action)).toEqual([
      ...ACTION_COMMANDS.map((c) => c.action).flatMap((a) => (a === 'tab.unpin' ? [a, 'tab.mute'] : [a])),
      'zoom',
      'cookie.get',
    ]);
  });

  it('refuses a derived command whose word another command has', () => {
    const clickAgain = deriveCommand({ action: 'click', summary: 'Click', params: { type: 'object' } });
    expect(() => withDerived(SECTIONS, [clickAgain])).toThrow(/exists already/);
    const underService = deriveCommand({
      action: 'service.reload',
      summary: 'Reload',
      params: { type: 'object' },
    });
    expect(() => withDerived(SECTIONS, [underService])).toThrow(/not a group/);
  });
});
