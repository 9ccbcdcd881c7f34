/**
 * The per-action steps of a tab action, as a table keyed by action instead of special cases in
 * runTabAction. Each step may:
 * - prepare: check before anything is forwarded (allowed folders, permissions, paths, the site policy) and shape the
 *   params the driver gets — a refusal answers at once and the driver never hears of it;
 * - forward: replace the one forwarded request by its own requests (annotated screenshots);
 * - finish: after the daemon's common effects of the answer (handles, URL, opened tabs), write files
 *   and shape the answer.
 * An action may have several steps: they prepare in table order, and finish in reverse order (the
 * first step's finish sees the others' answer last).
 */
import { ACTION_NAMES, resultNamesDownloads, type ActionName } from '@bproxy/protocol';
import type { ClientRecord } from '../browsers/clients';
import type { DriverOutcome } from '../browsers/forwarded-requests';
import type { SessionRecord, TabRecord } from '../sessions/sessions';
import type { ForwardTarget } from './dispatch';
import type { CommandContext, CommandRouteDeps } from './types';
import { urlForClient } from './url-check';
import { refuseDestination } from '../policy/enforce';
import { checkUpload, uploadAnswer } from '../files/upload';
import { checkPdf } from '../files/pdf';
import { finishStateAction, isStateAction, prepareStateAction } from './state-doors';
import { finishNetworkRead, prepareNetworkRead } from '../observe/network-actions';
import { addActionDiff, wantsActionDiff, withoutDiff } from './action-diff';
import { annotatedScreenshot } from './annotate';
import { secretFillParams } from './secret-fill';
import { downloadWaitStep, downloadsNamedStep } from './download-steps';
import { STEP_GATED, approvalStep } from '../approvals/gate';

/** What every step of one request sees. */
export interface StepContext {
  readonly deps: CommandRouteDeps;
  readonly ctx: CommandContext;
  readonly session: SessionRecord;
  readonly tab: TabRecord;
  readonly client: ClientRecord;
  readonly resolveTarget: () => ForwardTarget | DriverOutcome;
  /** The params as the agent sent them (after the daemon resolved its handles). */
  readonly params: Record<string, unknown>;
}

/** A step made ready for one request. */
export interface PreparedStep {
  /** The params forwarded from here on. */
  readonly params: Record<string, unknown>;
  /** Instead of the one forwarded request: the answer before the daemon's common effects. */
  readonly forward?: (params: Record<string, unknown>) => Promise<DriverOutcome>;
  /** After the daemon's common effects: the answer the agent gets. */
  readonly finish?: (outcome: DriverOutcome) => DriverOutcome | Promise<DriverOutcome>;
}

export interface TabStep {
  /** The step for this request, given the params so far; a DriverOutcome refuses it. */
  prepare(sc: StepContext, params: Record<string, unknown>): PreparedStep | DriverOutcome;
}

/** navigate: the URL is checked for the browser it goes to (file:, the daemon's own port…). */
const navigateStep: TabStep = {
  prepare(sc, params) {
    if (typeof sc.params.url !== 'string') return { params };
    const checked = urlForClient(sc.deps, sc.client, sc.params.url);
    if ('ok' in checked) return checked;
    // The site policy: a destination it refuses is never loaded.
    const refused = refuseDestination(sc.deps, sc.session, checked.url);
    if (refused) return refused;
    return { params: { ...sc.params, url: checked.url } };
  },
};

/** upload: files are checked against the allowed folders before the request goes anywhere. */
const uploadStep: TabStep = {
  prepare(sc) {
    const upload = checkUpload(sc.deps, sc.session, sc.params, sc.client);
    if ('ok' in upload) return upload;
    return { params: upload.params, finish: (outcome) => uploadAnswer(outcome, upload.files) };
  },
};

/** drop: the files dropped go through the same door as upload's. */
const dropStep: TabStep = {
  prepare(sc) {
    const drop = checkUpload(sc.deps, sc.session, sc.params, sc.client, 'drop');
    if ('ok' in drop) return drop;
    return { params: drop.params, finish: (outcome) => uploadAnswer(outcome, drop.files) };
  },
};

/** pdf: where the file goes is checked before it is printed; the daemon writes it. */
const pdfStep: TabStep = {
  prepare(sc) {
    const pdf = checkPdf(sc.deps, sc.session, sc.params);
    if ('ok' in pdf) return pdf;
    return { params: pdf.params, finish: (outcome) => pdf.answer(outcome) };
  },
};

/** fill with a secret: looked up here and handed to the driver with the origin it may only go to. */
const secretStep: TabStep = {
  prepare(sc, params) {
    const secret = secretFillParams(sc.deps.secrets, params);
    if (secret === null) return { params };
    if ('ok' in secret) return secret;
    return { params: secret.params };
  },
};

/** state.* and cookies.*: the permission door and the state file. */
const stateStep: TabStep = {
  prepare(sc) {
    const action = sc.ctx.request.action;
    const prepared = prepareStateAction(sc.deps, action, sc.session, sc.client, sc.params);
    if ('ok' in prepared) return prepared;
    return {
      params: prepared.forwarded,
      finish: (outcome) => finishStateAction(action, prepared.path, outcome),
    };
  },
};

/** network.get and network.har: the user's reveal setting, the HAR path, the files written. */
const networkStep: TabStep = {
  prepare(sc, params) {
    const action = sc.ctx.request.action;
    const prepared = prepareNetworkRead(sc.deps, sc.session, action, params);
    if (!prepared.ok) return prepared.outcome;
    return {
      params: prepared.params,
      finish: (outcome) => finishNetworkRead(sc.deps, sc.session, action, outcome, prepared.harPath),
    };
  },
};

/** screenshot: `annotate` is the daemon's to carry out — a driver gets the labels to draw instead. */
const screenshotStep: TabStep = {
  prepare(sc, params) {
    const { annotate, ...image } = params;
    if (annotate !== true) return { params: image };
    return {
      params: image,
      forward: (forwarded) =>
        annotatedScreenshot(sc.deps, sc.ctx, sc.session, sc.tab, sc.resolveTarget, forwarded),
    };
  },
};

/** click, fill, type, press, select, drag with `diff`: the snapshot diff the action caused, read after it. */
const diffStep: TabStep = {
  prepare(sc, params) {
    if (!wantsActionDiff(sc.ctx.request.action, sc.params)) return { params };
    return {
      params: withoutDiff(params),
      finish: (outcome) => addActionDiff(sc.deps, sc.ctx, sc.session, sc.tab, sc.resolveTarget, outcome),
    };
  },
};

/** The table: which steps each action has, in order. Add an entry for a new action's step. */
const STEP_ENTRIES: readonly (readonly [readonly ActionName[], TabStep])[] = [
  [['navigate'], navigateStep],
  [['upload'], uploadStep],
  [['drop'], dropStep],
  [['pdf'], pdfStep],
  [['fill'], secretStep],
  [ACTION_NAMES.filter(isStateAction), stateStep],
  // Approvals of upload, state export and a first visit: after the doors above refused what they refuse.
  [STEP_GATED, approvalStep],
  [['network.get', 'network.har'], networkStep],
  [['screenshot'], screenshotStep],
  [['click', 'fill', 'type', 'press', 'select', 'drag'], diffStep],
  // Downloads the action's tab started: named in the answer of every action that answers its effects.
  [ACTION_NAMES.filter(resultNamesDownloads), downloadsNamedStep],
  [['wait'], downloadWaitStep],
];

export function stepsOf(action: ActionName): TabStep[] {
  return STEP_ENTRIES.filter(([actions]) => actions.includes(action)).map(([, step]) => step);
}
