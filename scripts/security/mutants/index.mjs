// The threat model's proofs, as removals: for each protection docs/security.md claims, the smallest
// edit that takes it away, and the tests named there that must then fail. `npm run check:security`
// applies each in turn (scripts/security/run-mutants.mjs); `npm run check` checks that every test the
// doc names is listed here and that every edit still applies.
//
// An entry: id, the protection in a few words, the edits ({ file, find, replace }, `find` occurring
// exactly once), the references it must kill (spelled as in the doc: `file › describe › test`), and
// `run` when the named file is a shared suite that runs through other test files.
import { MUTANTS as AGENT } from './agent.mjs';
import { MUTANTS as CLIENT_CONFIG } from './client-config.mjs';
import { MUTANTS as CLIENT_PROOF } from './client-proof.mjs';
import { MUTANTS as BACKGROUND } from './background.mjs';
import { MUTANTS as BATCH } from './batch.mjs';
import { MUTANTS as BRIDGE } from './bridge.mjs';
import { MUTANTS as CHAT_MARKDOWN } from './chat-markdown.mjs';
import { MUTANTS as DAEMON_PROOF } from './daemon-proof.mjs';
import { MUTANTS as DRAG } from './drag.mjs';
import { MUTANTS as FAULTS } from './faults.mjs';
import { MUTANTS as FILES } from './files.mjs';
import { MUTANTS as DOWNLOADS } from './downloads.mjs';
import { MUTANTS as FRAMES } from './frames.mjs';
import { MUTANTS as GATE_AND_STATE } from './gate-and-state.mjs';
import { MUTANTS as HIDDEN_TEXT } from './hidden-text.mjs';
import { MUTANTS as HOSTILE_INPUT } from './hostile-input.mjs';
import { MUTANTS as ISOLATION } from './isolation.mjs';
import { MUTANTS as NATIVE_HOST } from './native-host.mjs';
import { MUTANTS as OBSERVE } from './observe.mjs';
import { MUTANTS as PAGE_AND_HANDLES } from './page-and-handles.mjs';
import { MUTANTS as PANEL_AND_TERMINAL } from './panel-and-terminal.mjs';
import { MUTANTS as PRIVATE_FILES } from './private-files.mjs';
import { MUTANTS as SECRETS } from './secrets.mjs';
import { MUTANTS as STATE } from './state.mjs';
import { MUTANTS as TABS_AND_INPUT } from './tabs-and-input.mjs';
import { MUTANTS as URLS } from './urls.mjs';
import { MUTANTS as USER_CONTROLS } from './user-controls.mjs';
import { MUTANTS as TAB_GROUPS } from './tab-groups.mjs';
import { MUTANTS as PANEL_RESTARTS } from './panel-restarts.mjs';
import { MUTANTS as ACTIVITY_AGENT } from './activity-agent.mjs';
import { MUTANTS as UNTRUSTED } from './untrusted.mjs';
import { MUTANTS as SITE_POLICY } from './site-policy.mjs';
import { MUTANTS as APPROVALS } from './approvals.mjs';
import { MUTANTS as APPROVALS_UI } from './approvals-ui.mjs';
import { MUTANTS as APPROVALS_DEFAULTS } from './approvals-defaults.mjs';

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  ...GATE_AND_STATE,
  ...BACKGROUND,
  ...PRIVATE_FILES,
  ...PAGE_AND_HANDLES,
  ...TABS_AND_INPUT,
  ...DAEMON_PROOF,
  ...USER_CONTROLS,
  ...AGENT,
  ...BRIDGE,
  ...NATIVE_HOST,
  ...PANEL_AND_TERMINAL,
  ...CHAT_MARKDOWN,
  ...OBSERVE,
  ...FAULTS,
  ...ISOLATION,
  ...HOSTILE_INPUT,
  ...HIDDEN_TEXT,
  ...URLS,
  ...FILES,
  ...DOWNLOADS,
  ...CLIENT_PROOF,
  ...CLIENT_CONFIG,
  ...STATE,
  ...BATCH,
  ...FRAMES,
  ...TAB_GROUPS,
  ...PANEL_RESTARTS,
  ...ACTIVITY_AGENT,
  ...UNTRUSTED,
  ...DRAG,
  ...SITE_POLICY,
  ...APPROVALS,
  ...APPROVALS_UI,
  ...APPROVALS_DEFAULTS,
  ...SECRETS,
];
