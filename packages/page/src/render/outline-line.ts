/** One line of a snapshot's outline, as the walk (outline.ts) emits it and the link merge (link-runs.ts) rewrites it. */
export interface OutlineLine {
  depth: number;
  text: string;
  parent: number;
  /** Set on a line that stands for one link (lets a heading absorb its only link). */
  link?: { ref: number; name: string };
}
