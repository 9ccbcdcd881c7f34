/**
 * Every tool the agent knows — the catalogue's browser tools (less the hidden ones), the scratch
 * files and the notes — and the one way to run them: the user's switches decide what the model is
 * offered and what it may call (a switched-off tool is never listed, and a call to it is refused),
 * every call has a deadline, and a stopped turn does not wait for a call still in flight.
 */
import { TOOLS_BY_NAME, toolTimeoutMs } from '@bproxy/tools';
import type { z } from 'zod';
import type { AgentPaths } from '../paths';
import { browserToolDefinitions, isBrowserTool, runBrowserTool, type ActionCaller } from './browser-tools';
import { definitionOf, runLocalTool, type AgentToolDefinition, type LocalTool } from './local-tool';
import { notesTools } from './notes';
import { scratchFileTools } from './scratch-files';
import { failure, type ToolRun } from './tool-result';

export type ToolSwitches = Readonly<Record<string, boolean>>;

/** Local tools finish at once; this bounds a browser call beyond the daemon's own deadline. */
const DEADLINE_GRACE_MS = 10_000;

type AnyLocalTool = LocalTool<z.ZodType<Record<string, unknown>>>;

export class ToolBox {
  private readonly local: ReadonlyMap<string, AnyLocalTool>;
  /** Every tool, in the order the model sees them. */
  readonly all: readonly AgentToolDefinition[];

  constructor(
    private readonly caller: ActionCaller,
    paths: AgentPaths,
    clock: () => number,
    /** Overrides every browser call's deadline (tests); default the catalogue's, plus a grace. */
    private readonly deadlineMs?: number,
  ) {
    const local = [
      ...scratchFileTools(paths.files),
      ...notesTools(paths.notes, clock),
    ] as unknown as AnyLocalTool[];
    this.local = new Map(local.map((tool) => [tool.name, tool]));
    this.all = [...browserToolDefinitions(), ...local.map(definitionOf)];
  }

  has(name: string): boolean {
    return this.local.has(name) || isBrowserTool(name);
  }

  enabled(name: string, switches: ToolSwitches): boolean {
    return this.has(name) && switches[name] !== false;
  }

  /** The inventory sent to the model: what the user left on. */
  definitions(switches: ToolSwitches): AgentToolDefinition[] {
    return this.all.filter((tool) => switches[tool.name] !== false);
  }

  /** Every tool and whether it is on (the settings message). */
  switches(switches: ToolSwitches): Record<string, boolean> {
    return Object.fromEntries(this.all.map((tool) => [tool.name, switches[tool.name] !== false]));
  }

  async run(
    name: string,
    input: Record<string, unknown>,
    session: string,
    switches: ToolSwitches,
    signal: AbortSignal,
  ): Promise<ToolRun> {
    if (!this.has(name)) return failure('UNKNOWN_ACTION', `UNKNOWN_ACTION: no tool named "${name}"`);
    if (!this.enabled(name, switches))
      return failure(
        'UNKNOWN_ACTION',
        `UNKNOWN_ACTION: the user switched off ${name}\nWhat to do: Do without it`,
      );
    const local = this.local.get(name);
    if (local !== undefined) return runLocalTool(local, input);
    const spec = TOOLS_BY_NAME.get(name);
    const limitMs =
      this.deadlineMs ?? (spec === undefined ? 30_000 : toolTimeoutMs(spec, input)) + DEADLINE_GRACE_MS;
    return raceDeadline(runBrowserTool(this.caller, name, input, session), limitMs, signal, name);
  }
}

export const STOPPED_TEXT =
  'STOPPED: the user stopped the turn before this tool call finished; its effect is unknown';

/** The call's own outcome, or a TIMEOUT at the deadline, or a synthetic result the moment the turn stops. */
function raceDeadline(
  run: Promise<ToolRun>,
  limitMs: number,
  signal: AbortSignal,
  name: string,
): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    const done = (outcome: ToolRun): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const onAbort = (): void => done({ ok: false, content: STOPPED_TEXT, summary: 'stopped' });
    const timer = setTimeout(
      () =>
        done(failure('TIMEOUT', `TIMEOUT: ${name} did not finish within ${Math.round(limitMs / 1000)} s`)),
      limitMs,
    );
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    run.then(done, (error: unknown) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      reject(error instanceof Error ? error : new Error(String(error)));
    });
  });
}
