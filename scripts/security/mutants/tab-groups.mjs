// Removals of the threat model's section on a shared tab (its session id is a capability) that concern
// the tab strip: a shared tab's group is titled by its site, never by its session id.

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  {
    id: 'shared-group-title-no-session-id',
    protects: "a shared tab's group title never holds its session id",
    build: true,
    edits: [
      {
        file: 'packages/extension/src/background/daemon/browser-view.ts',
        find: '    if (info.sharedByUser !== true) return info.label ?? info.session;',
        replace: '    if (info.sharedByUser !== true || info.sharedByUser) return info.session;',
      },
    ],
    kills: [
      'packages/extension/test/background/daemon/browser-view.test.ts › the tab group of a session › titles a shared tab’s group by its site, never by its session id, and marks a pause in words',
      'tests/headed/tab-groups.test.ts › bproxy’s tab groups › titles a shared tab’s group by its site, removes a ghost group, and lets groups go with the daemon',
    ],
  },
];
