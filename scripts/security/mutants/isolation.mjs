// Removals of the isolation the threat model's sections 5 and 13 claim: the page script runs in an
// isolated world on both drivers, and no web page can message the extension at all.

const FORGED =
  'tests/kit/suites/actions.ts › keeps the page script out of a hostile page’s reach: its forged page script is never called and it sees nothing of ours';
const CDP_TAB = 'packages/cdp/src/driver/page-tab.ts';
const EXT_RUNNER = 'packages/extension/src/background/driver/page-runner.ts';

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  {
    id: 'cdp-isolated-world',
    protects: 'the CDP driver runs the page script in an isolated world, out of the page’s reach',
    edits: [
      // The bundle goes into every new document's main world, and the driver calls (and injects into)
      // the main world's context instead of its own world's.
      {
        file: CDP_TAB,
        find: '{ source: bundle, worldName: WORLD_NAME, runImmediately: true }',
        replace: '{ source: bundle, runImmediately: true }',
      },
      {
        file: CDP_TAB,
        find: 'if (context.name === WORLD_NAME && context.auxData?.frameId === this.mainFrameId)',
        replace: 'if (context.auxData?.isDefault === true && context.auxData.frameId === this.mainFrameId)',
      },
    ],
    kills: [FORGED],
    run: ['tests/e2e/drivers-cdp.test.ts'],
    build: true,
  },
  {
    id: 'extension-isolated-world',
    protects: 'the extension runs the page script in an isolated world, out of the page’s reach',
    edits: [
      {
        file: EXT_RUNNER,
        find: '        files: [PAGE_SCRIPT_FILE],',
        replace: "        files: [PAGE_SCRIPT_FILE],\n        world: 'MAIN',",
      },
      {
        file: EXT_RUNNER,
        find: '        func: callPageApi,',
        replace: "        func: callPageApi,\n        world: 'MAIN',",
      },
    ],
    kills: [FORGED],
    run: ['tests/e2e/drivers-extension.test.ts'],
    build: true,
  },
  {
    id: 'manifest-externally-connectable',
    protects: 'no web page can message the extension (the manifest has no externally_connectable)',
    edits: [
      {
        file: 'packages/extension/manifest.json',
        find: '  "host_permissions": ["http://*/*", "https://*/*"],',
        replace:
          '  "host_permissions": ["http://*/*", "https://*/*"],\n  "externally_connectable": { "matches": ["<all_urls>"] },',
      },
    ],
    kills: [
      'tests/e2e/panel-terminal.test.ts › the Terminal view › is out of a web page’s reach: the page has no native messaging API and no way to message the extension',
    ],
    build: true,
  },
];
