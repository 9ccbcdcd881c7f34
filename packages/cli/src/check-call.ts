/**
 * The CLI's own usage check of an action call, with the protocol schemas: an unknown action or params
 * the schema refuses become a usage error (exit 2) that names the field. Loaded only when a call has
 * already failed (see run-action.ts), so a successful action never loads zod.
 */
import { isActionName, parseParams } from '@bproxy/protocol';
import { usageError } from './cli-error';
import type { ActionCall } from './actions/grammar';

/** Throws the usage error that explains why `call` cannot succeed; returns when the call is valid. */
export function checkCall(call: ActionCall): void {
  const action = call.action;
  if (!isActionName(action)) {
    throw usageError(
      `unknown action "${action}"`,
      'Actions are protocol names like session.create, click or debug.status (see `bproxy --help`)',
    );
  }
  const checked = parseParams(action, call.params);
  if (!checked.ok)
    throw usageError(checked.error.message, `Run \`bproxy ${action.replace('.', ' ')} --help\``);
}
