/**
 * What `bproxy doctor --json` prints: one report a tool reads to know whether this installation works
 * and what to run when it does not. Each check belongs to a group (the daemon, the browsers, the
 * extension, the native host, the agent, the terminal program) and has a status: `ok`; `warn` for
 * something optional (no agent configured, no Claude Code for the Terminal) that does not fail the
 * report; `fail`, which does — with `fix`, the one command (or step) that fixes it; `skip` when
 * it could not be checked because an earlier check failed (its `detail` says which). `ok` is true
 * exactly when no check failed, and the command's exit code follows it (0, else 1).
 */
import { z } from 'zod';

export const DOCTOR_GROUPS = ['daemon', 'browsers', 'extension', 'host', 'agent', 'terminal'] as const;
export const DoctorGroupSchema = z.enum(DOCTOR_GROUPS);
export const DoctorStatusSchema = z.enum(['ok', 'warn', 'fail', 'skip']);

export const DoctorCheckSchema = z.strictObject({
  group: DoctorGroupSchema,
  /** A stable name within the group (`running`, `version`, `files`, `chromium`, …). */
  name: z.string().regex(/^[a-z][a-z0-9-]*$/),
  status: DoctorStatusSchema,
  /** What was found, in one sentence; never a secret (paths, modes and versions only). */
  detail: z.string(),
  /** For `fail` and `warn`: the command or step that fixes it. */
  fix: z.string().optional(),
});

export const DoctorReportSchema = z.strictObject({
  ok: z.boolean(),
  /** This bproxy's version. */
  version: z.string(),
  /** The BPROXY_HOME checked. */
  home: z.string(),
  checks: z.array(DoctorCheckSchema),
});

export type DoctorGroup = z.infer<typeof DoctorGroupSchema>;
export type DoctorStatus = z.infer<typeof DoctorStatusSchema>;
export type DoctorCheck = z.infer<typeof DoctorCheckSchema>;
export type DoctorReport = z.infer<typeof DoctorReportSchema>;
