/**
 * JSON Schema derived from the Zod schemas, for surfaces that describe actions to others (MCP tools,
 * an agent's tool list): never written a second time.
 */
import { z } from 'zod';
import type { ActionName } from './action-facts';
import { ACTIONS } from './actions';

/** The JSON Schema of an action's params as an agent sends them. */
export function paramsJsonSchema(action: ActionName): Record<string, unknown> {
  return z.toJSONSchema(ACTIONS[action].params, { io: 'input', unrepresentable: 'any' });
}

/** The names of an action's top-level params, read off its schema (no JSON Schema built). */
export function paramNames(action: ActionName): readonly string[] {
  const params = ACTIONS[action].params;
  return params instanceof z.ZodObject ? Object.keys(params.shape) : [];
}
