/**
 * The tool list is read by a model on every call, so its schemas say what a model needs to call a tool
 * and no more: the bounds a model never meets (string lengths, the largest integers) are left out of
 * the JSON Schema it is shown. They are not dropped: every call is still checked against the action's
 * full schema (tool-call.ts), and a value outside them gets a BAD_REQUEST that names the argument.
 */
type JsonObject = Record<string, unknown>;

/** Integer maxima at or above this are a guard against absurd input, not something a model chooses by. */
const GUARD_MAXIMUM = 100_000;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function compactValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(compactValue);
  if (!isObject(value)) return value;
  return compactSchema(value);
}

/** `schema` without string-length bounds and guard maxima, at every depth. */
export function compactSchema(schema: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'minLength' || key === 'maxLength') continue;
    if (key === 'maximum' && typeof value === 'number' && value >= GUARD_MAXIMUM) continue;
    out[key] = key === 'properties' && isObject(value) ? compactProperties(value) : compactValue(value);
  }
  return out;
}

/** A `properties` map compacted: its keys are parameter names, kept whatever they are. */
export function compactProperties(properties: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(properties).map(([name, value]) => [name, compactValue(value)]));
}

/** An element target as a model is told it: a handle string or {selector}; `note` says where handles come from. */
export function compactTarget(note: string): JsonObject {
  return {
    anyOf: [
      { type: 'string' },
      { type: 'object', properties: { selector: { type: 'string' } }, required: ['selector'] },
    ],
    description: note,
  };
}
