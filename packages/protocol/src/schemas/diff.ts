/**
 * Snapshot diffs: `snapshot` with `diff: true`, and the acting actions with `diff: true` (the change
 * they caused). The daemon remembers each session's last snapshot per tab and scope and answers only
 * the lines that changed; the first read of a scope, and the first after a navigation, is whole.
 */
import { z } from 'zod';

/** first: no earlier snapshot of this scope, the whole outline; navigated: a new page, whole; changes: only what changed. */
export const SNAPSHOT_DIFF_KINDS = ['first', 'navigated', 'changes'] as const;
export const SnapshotDiffKindSchema = z.enum(SNAPSHOT_DIFF_KINDS);
export type SnapshotDiffKind = z.infer<typeof SnapshotDiffKindSchema>;

/** The param: answer only what changed since this session's last snapshot of the tab and scope. */
export const DiffParamShape = { diff: z.boolean().optional() };

/** What an acting action answers with `diff: true`: the snapshot diff its effect left. */
export const ActionDiffSchema = z.strictObject({
  kind: SnapshotDiffKindSchema,
  snapshot: z.string(),
  notice: z.string().optional(),
});
export type ActionDiff = z.infer<typeof ActionDiffSchema>;
export const DiffResultShape = { diff: ActionDiffSchema.optional() };
