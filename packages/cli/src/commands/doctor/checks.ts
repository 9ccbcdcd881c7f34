/**
 * What every check group of `bproxy doctor` shares: the report's check shape (the protocol's
 * DoctorCheckSchema), the four ways to make one, and what a group is given to look at. Every group
 * reads only: nothing here writes a file, starts a process that stays, or prints a secret.
 */
import type { DoctorCheck, DoctorGroup } from '@bproxy/protocol';
import type { Env } from '@bproxy/client';
import type { StatePaths } from '@bproxy/client/lifecycle';

export type Check = DoctorCheck;

export interface DoctorContext {
  readonly env: Env;
  /** BPROXY_HOME. */
  readonly home: string;
  readonly paths: StatePaths;
  /** `--extension-id`: the id chrome://extensions shows, to say whether it is trusted. */
  readonly extensionId: string | null;
}

export const ok = (group: DoctorGroup, name: string, detail: string): Check => ({
  group,
  name,
  status: 'ok',
  detail,
});

export const warn = (group: DoctorGroup, name: string, detail: string, fix: string): Check => ({
  group,
  name,
  status: 'warn',
  detail,
  fix,
});

export const fail = (group: DoctorGroup, name: string, detail: string, fix: string): Check => ({
  group,
  name,
  status: 'fail',
  detail,
  fix,
});

export const skip = (group: DoctorGroup, name: string, detail: string): Check => ({
  group,
  name,
  status: 'skip',
  detail,
});

export const describeError = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);
