// Removals of the threat model's line on which agent the Activity names: a label its client writes,
// checked by the envelope's schema like every other field.

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  {
    id: 'request-agent-checked',
    protects: "a request's agent label is one of four kinds, its name at most 64 characters",
    edits: [
      {
        file: 'packages/protocol/src/envelope.ts',
        find: '  kind: z.enum(AGENT_KINDS),',
        replace: "  kind: z.enum([...AGENT_KINDS, 'root']),",
      },
      {
        file: 'packages/protocol/src/envelope.ts',
        find: '  name: z.string().min(1).max(AGENT_NAME_MAX).optional(),',
        replace: '  name: z.string().optional(),',
      },
    ],
    kills: [
      'packages/daemon/test/actions/user-requests.test.ts › what the daemon pushes to the browser › names an element a snapshot minted, says which agent acted, and records a click refused while paused',
    ],
  },
];
