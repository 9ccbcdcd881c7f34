/**
 * The whole command tree: the hand-written sections (actions/index.ts), the commands derived from
 * the protocol for its actions that have no hand-written grammar, and the commands that are not one
 * action each, by name. Loaded with the full program only: deriving reads the protocol's schemas.
 * The README's CLI reference is made from it here too (a test holds the README to it).
 */
import { ACTION_FACTS, ACTION_NAMES, paramsJsonSchema } from '@bproxy/protocol';
import { deriveCommand, withDerived, type DerivedSource } from '../actions/derive';
import type { ReferenceRow } from '../actions/grammar';
import {
  ACTION_COMMANDS,
  SECTIONS,
  actionCommandsOf,
  isCustom,
  isGroup,
  type CustomName,
  type Section,
} from '../actions/index';
import type { CustomCommand } from './action-command';
import { AGENT } from './agent';
import { BRIDGE } from './bridge';
import { DOCTOR } from './doctor/command';
import { EXTENSION } from './extension';
import { HELP } from './help';
import { HOST, SETUP } from './host';
import { MCP } from './mcp';
import { POLICY } from './policy';
import { SECRET } from './secret';
import { SERVICE } from './service';

/** Every command that is not one protocol action, by the name the tree gives it. */
export const CUSTOM: { readonly [K in CustomName]: CustomCommand } = {
  service: SERVICE,
  mcp: MCP,
  agent: AGENT,
  help: HELP,
  bridge: BRIDGE,
  setup: SETUP,
  host: HOST,
  extension: EXTENSION,
  doctor: DOCTOR,
  policy: POLICY,
  secret: SECRET,
};

/** The protocol's actions that no hand-written command sends, as the protocol describes them. */
export function protocolSources(): DerivedSource[] {
  const sent = new Set(ACTION_COMMANDS.flatMap((command) => [command.action, ...(command.alsoSends ?? [])]));
  return ACTION_NAMES.filter((action) => !sent.has(action)).map((action) => ({
    action,
    summary: ACTION_FACTS[action].summary,
    params: paramsJsonSchema(action),
  }));
}

/** The sections of the tree: the hand-written ones, with a command derived for each of `sources`. */
export function commandTree(sources: readonly DerivedSource[] = protocolSources()): readonly Section[] {
  return withDerived(SECTIONS, sources.map(deriveCommand));
}

/** The protocol actions the commands of `sections` send (`call` sends any, and counts for none). */
export function actionsOf(sections: readonly Section[]): string[] {
  return actionCommandsOf(sections).flatMap((command) => [
    ...(command.action === undefined ? [] : [command.action]),
    ...(command.alsoSends ?? []),
  ]);
}

/** The README's CLI reference rows, in the order of the tree (a group's own rows after its commands'). */
export function referenceRows(sections: readonly Section[]): ReferenceRow[] {
  const rows: ReferenceRow[] = [];
  for (const section of sections) {
    for (const entry of section.entries) {
      if (isCustom(entry)) rows.push(...CUSTOM[entry.custom].reference);
      else if (isGroup(entry)) {
        for (const command of entry.commands) rows.push(...(command.help().reference ?? []));
        rows.push(...(entry.help().reference ?? []));
      } else rows.push(...(entry.help().reference ?? []));
    }
  }
  return rows;
}

/** `rows` as the README's markdown table, laid out the way prettier lays out tables. */
export function referenceTable(rows: readonly ReferenceRow[]): string {
  const cells = [['command', 'what it does'], ...rows.map((row) => [row.usage, row.does])];
  const widths = [0, 1].map((column) => Math.max(...cells.map((cell) => [...(cell[column] ?? '')].length)));
  const line = (cell: readonly string[]) =>
    `| ${cell.map((text, column) => text.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  const [header = [], ...body] = cells;
  return [line(header), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...body.map(line)].join('\n');
}
