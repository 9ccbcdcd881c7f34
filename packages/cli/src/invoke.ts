/**
 * The bridge from a parsed command line to a daemon call. Command definitions stay light (commander
 * only); the protocol schemas, the state-file checks and HTTP are imported here, lazily, when an
 * action actually runs — so `--help` and `--version` never load zod.
 */
import type { Command } from 'commander';
import { globalOptions } from './global-options';

/** How a successful answer is shown: raw data, or a file written from it. */
export type Render =
  { readonly kind: 'data' } | { readonly kind: 'screenshot'; readonly out: string | undefined };

export interface ActionCall {
  readonly action: string;
  readonly params: Record<string, unknown>;
  readonly render?: Render;
}

export async function invoke(command: Command, call: ActionCall): Promise<void> {
  const { runAction } = await import('./run-action');
  await runAction(globalOptions(command), call);
}

export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;
}
