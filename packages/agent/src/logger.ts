/**
 * What the agent logs through. The native host hands in its host.log writer; the agent never logs a
 * key, page content, a tool result or a transcript — only events, ids, codes, counts and timings.
 */
export type LogFields = Readonly<Record<string, string | number | boolean | null | undefined>>;

export interface AgentLogger {
  info(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
}

export const silentLogger: AgentLogger = { info() {}, warn() {}, error() {} };
