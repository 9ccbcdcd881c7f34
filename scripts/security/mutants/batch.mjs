// Removals of what the threat model says of `batch`: each step is the request it would be alone —
// paced in the session's one schedule, under an id of its own derived from the batch's.

const BATCH = 'packages/daemon/src/actions/batch.ts';
const TESTS = 'packages/daemon/test/actions/batch.test.ts › batch';

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  {
    id: 'batch-steps-paced',
    protects: "a batch's steps take the session's pacing slots like requests sent one by one",
    edits: [
      // The batch paced as one action: each step starts the session's schedule afresh.
      {
        file: BATCH,
        find: '    const response = await runStep(body);',
        replace: '    session.lastPacedAt = null;\n    const response = await runStep(body);',
      },
    ],
    kills: [
      `${TESTS} › cannot beat pacing: its steps take the pacing slots the same requests sent one by one would`,
    ],
  },
  {
    id: 'batch-stops-at-failure',
    protects: 'the first failing step ends a batch: later steps never run',
    edits: [
      // A failure ends the batch only when it is the last step's.
      {
        file: BATCH,
        find: '    if (!response.ok) {',
        replace: '    if (!response.ok && index === bodies.length - 1) {',
      },
    ],
    kills: [
      `${TESTS} › stops at its failing step: later steps never run, the answer is that step’s error with what ran before`,
    ],
  },
  {
    id: 'batch-step-ids',
    protects: "a batch's steps are requests of their own, with ids derived from the batch's",
    edits: [
      // The steps sent under ids of their own making: a repeated batch's steps would not be recognised.
      {
        file: 'packages/protocol/src/schemas/batch.ts',
        find: '  return `${id}.${index + 1}`;',
        replace: '  return `${id}.${index + 1}.${Math.random().toString(36).slice(2, 8)}`;',
      },
    ],
    kills: [`${TESTS} › runs its steps in order as requests of their own, answering each step's result`],
  },
];
