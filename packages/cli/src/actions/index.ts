/**
 * The `bproxy` command tree as data: the sections of the top-level help in order, each with its
 * commands — action commands and groups of them (defined in this folder with their help), and the
 * commands that are not one protocol action each (service, mcp, …), named here and built with
 * commander in ../commands. Commander's tree (program.ts), the fast path's lookup and the README's
 * CLI reference all read it, so a command's name is written once. Free of commander and of zod.
 */
import { batch } from './batch';
import { DEBUG, call } from './debug';
import type { ActionCommand, ActionGroup } from './grammar';
import { drag } from './drag';
import { FILES } from './files';
import { INTERACTION } from './interaction';
import { NAVIGATION } from './navigation';
import { OBSERVE } from './observe';
import { pair } from './pairing';
import { READS } from './reads';
import { SESSION } from './sessions';
import { COOKIES, STATE, emulate } from './state';
import { TAB } from './tabs';
import { WAITING } from './waiting';

/** The commands that are not one protocol action each; commands/ builds each with commander. */
export type CustomName =
  | 'service'
  | 'mcp'
  | 'agent'
  | 'help'
  | 'bridge'
  | 'setup'
  | 'host'
  | 'extension'
  | 'doctor'
  | 'policy'
  | 'secret';

export interface CustomEntry {
  readonly custom: CustomName;
}

export type TreeEntry = ActionCommand | ActionGroup | CustomEntry;

export interface Section {
  readonly heading: string;
  readonly entries: readonly TreeEntry[];
}

export const SECTIONS: readonly Section[] = [
  { heading: 'Daemon:', entries: [{ custom: 'service' }, pair] },
  { heading: 'Sessions and tabs:', entries: [SESSION, TAB] },
  { heading: 'Navigation:', entries: NAVIGATION },
  { heading: 'Reading the page (mints handles like el3, ln2):', entries: READS },
  { heading: 'Acting on the page:', entries: [...INTERACTION, drag, ...WAITING, batch] },
  { heading: 'Files:', entries: FILES },
  { heading: 'Logins and emulation:', entries: [STATE, COOKIES, emulate, { custom: 'secret' }] },
  { heading: 'Console and network:', entries: OBSERVE },
  { heading: 'Debugging:', entries: [DEBUG, call] },
  { heading: 'Agents:', entries: [{ custom: 'mcp' }, { custom: 'agent' }, { custom: 'help' }] },
  { heading: 'CDP tools:', entries: [{ custom: 'bridge' }] },
  {
    heading: 'Browser setup:',
    entries: [
      { custom: 'setup' },
      { custom: 'host' },
      { custom: 'extension' },
      { custom: 'doctor' },
      { custom: 'policy' },
    ],
  },
];

export const isCustom = (entry: TreeEntry): entry is CustomEntry => 'custom' in entry;
export const isGroup = (entry: TreeEntry): entry is ActionGroup => 'commands' in entry;

/** The top-level word of an entry: `service`, `session`, `click`. */
export function entryName(entry: TreeEntry): string {
  if (isCustom(entry)) return entry.custom;
  if (isGroup(entry)) return entry.name;
  return entry.path[0];
}

/** Every action command of `sections`, grouped ones included (loops: see fast-path.ts). */
export function actionCommandsOf(sections: readonly Section[]): ActionCommand[] {
  const commands: ActionCommand[] = [];
  for (const section of sections) {
    for (const entry of section.entries) {
      if (isCustom(entry)) continue;
      if (isGroup(entry)) for (const command of entry.commands) commands.push(command);
      else commands.push(entry);
    }
  }
  return commands;
}

/** Every hand-written action command, for the fast path's lookup. */
export const ACTION_COMMANDS: readonly ActionCommand[] = actionCommandsOf(SECTIONS);
