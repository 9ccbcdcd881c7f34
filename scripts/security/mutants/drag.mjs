// Removals of the threat model's lines on files dropped onto a page (drop, the CLI's `drag FILE --to`):
// the same door as upload, checked in the daemon before anything is forwarded.

const DROP = 'packages/daemon/test/files/drop.test.ts › drop through the daemon';
const BOTH_DRIVERS = ['tests/headed/drag-cdp.test.ts', 'tests/headed/drag-extension.test.ts'];
const UNCHECKED = {
  file: 'packages/daemon/src/actions/tab-steps.ts',
  find: "  [['drop'], dropStep],\n",
  replace: '',
};

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  {
    id: 'drop-checked-before-forward',
    protects: 'the daemon checks the files before forwarding a drop',
    edits: [UNCHECKED],
    kills: [
      `${DROP} › refuses files outside the allowed folders, "..", and links out before anything reaches the browser`,
    ],
  },
  {
    id: 'drop-checked-both-drivers',
    protects: 'both drivers refuse to drop files outside the allowed folders, and the page sees no drop',
    build: true,
    run: BOTH_DRIVERS,
    edits: [UNCHECKED],
    kills: [
      'tests/kit/suites/drag.ts › refuses a file outside the allowed folders, a path naming "..", a link out: PATH_NOT_ALLOWED, no drop',
    ],
  },
  {
    id: 'agent-no-drop',
    protects: 'the in-browser agent is not offered drop',
    edits: [
      {
        file: 'packages/agent/src/tools/browser-tools.ts',
        find: "  'drop',\n  'batch',",
        replace: "  'batch',",
      },
    ],
    kills: [
      'packages/agent/test/tools/browser-tools.test.ts › the browser tools of the in-browser agent › does not offer drop (files onto a drop zone), and a call naming it reaches no daemon',
    ],
  },
  {
    id: 'drop-not-remote',
    protects: 'a remote or farm browser is never handed a path of this machine to drop',
    edits: [
      {
        file: 'packages/daemon/src/files/upload.ts',
        find: '  if (deps.launchers.isRemote(client))',
        replace: "  if (deps.launchers.isRemote(client) && client.name === '')",
      },
    ],
    kills: [
      `${DROP} › refuses drop on a browser that runs elsewhere (a remote endpoint), which could not read a path here`,
    ],
  },
];
