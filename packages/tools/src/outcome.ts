/**
 * What a surface makes of the daemon's answer to one tool's action: its checked data, or the error the
 * tool reports. The result is checked against the action's schema here, once for every surface (the
 * MCP server and the agent loop), so a model never reads data outside the protocol.
 */
import { actionDef, formatIssues, hintOf, type ActionName, type ErrorCode } from '@bproxy/protocol';
import type { ToolError } from './errors';

export type CallOutcome = { ok: true; data: unknown } | { ok: false; error: ToolError };

/** The daemon's answer as the client hands it (the client's `Answer` fits). */
export type DaemonAnswer =
  | { readonly ok: true; readonly data: unknown }
  | {
      readonly ok: false;
      readonly error: { code: ErrorCode; message: string; hint?: string; reason?: string };
    };

export function outcomeOf(action: ActionName, answer: DaemonAnswer): CallOutcome {
  if (!answer.ok) {
    const { code, message, hint, reason } = answer.error;
    return {
      ok: false,
      error: {
        code,
        message,
        ...(hint === undefined ? {} : { hint }),
        ...(reason === undefined ? {} : { reason }),
      },
    };
  }
  const result = actionDef(action).result.safeParse(answer.data);
  if (!result.success) {
    const message = `the ${action} result is outside the protocol: ${formatIssues(result.error, answer.data)}`;
    return { ok: false, error: { code: 'BAD_RESPONSE', message, hint: hintOf('BAD_RESPONSE') } };
  }
  return { ok: true, data: result.data };
}
