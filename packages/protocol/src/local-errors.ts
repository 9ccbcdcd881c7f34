/**
 * Codes that clients raise themselves and that never cross the wire: no daemon to talk to, a state
 * file that cannot be trusted, a daemon that does not answer or answers outside the protocol, a bad
 * command line or tool call. They sit beside the wire catalogue so that every code a client can print
 * comes from one place; the README's "Local errors" table is checked against this object by a test.
 * Zod-free: the CLI's action path reads it.
 */

export interface LocalErrorSpec {
  /** When the code is raised — the README's "When" column. */
  readonly when: string;
  /** What to do next; a client may say it more exactly for one case (a command's own --help). */
  readonly hint: string;
}

export const LOCAL_ERROR_CATALOGUE = {
  NO_DAEMON: {
    when: 'No daemon runs for BPROXY_HOME (no lock, a dead process, nothing on its port), or it could not be started',
    hint: 'Run `bproxy service start`',
  },
  UNSAFE_STATE_FILE: {
    when: 'A file in BPROXY_HOME is a symlink, belongs to another user or is readable by others',
    hint: 'Fix or remove the file, then run `bproxy service start`',
  },
  DAEMON_UNREACHABLE: {
    when: 'The daemon did not answer within the deadline (plus a grace period), or the connection failed',
    hint: 'Check `bproxy service status`; slow requests show in `bproxy debug last`',
  },
  BAD_RESPONSE: {
    when: 'The answer is not JSON, not a protocol envelope, or answers another request',
    hint: 'The client and the daemon may be from different releases: restart the daemon',
  },
  USAGE: {
    when: 'A command line or tool call the client refuses before sending anything',
    hint: 'Run the command with --help for its usage',
  },
  UNKNOWN_TOOL: {
    when: 'An MCP client called a tool that the server does not list',
    hint: 'Call tools/list',
  },
  LOCAL_ERROR: {
    when: 'Anything else that failed on the client side (a file that cannot be written, …)',
    hint: 'Read the message; the daemon was not involved',
  },
} as const satisfies Record<string, LocalErrorSpec>;

export type LocalErrorCode = keyof typeof LOCAL_ERROR_CATALOGUE;

export function isLocalErrorCode(value: unknown): value is LocalErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(LOCAL_ERROR_CATALOGUE, value);
}

/** The catalogue's hint for a local code. */
export function localHint(code: LocalErrorCode): string {
  const spec: LocalErrorSpec = LOCAL_ERROR_CATALOGUE[code];
  return spec.hint;
}
