/**
 * A streamed tool call's arguments, parsed: an object, or — when the model sent something else — an
 * object naming what it sent, which the tool's argument check then refuses with a sentence the model
 * can act on (rather than a turn that fails on one malformed call).
 */
export function parseToolInput(raw: string): Record<string, unknown> {
  if (raw.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  return { invalid_json_arguments: raw.slice(0, 200) };
}
