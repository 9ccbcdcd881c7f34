import { TabObserver } from '@bproxy/driver';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ActionHandler, DriverContext, HandlerTable } from '../../../src/background/driver/context';
import { DialogTracker } from '../../../src/background/driver/dialog-tracker';
import { IdleDebugger } from '../../../src/background/driver/idle-debugger';
import { DrivenTabs } from '../../../src/background/driver/driven-tabs';
import { ExecutedTable } from '../../../src/background/driver/executed-table';
import { Executor, HANDLERS } from '../../../src/background/driver/executor';
import { WorkerLog } from '../../../src/background/log';
import { NavigationTracker } from '../../../src/background/driver/navigation-tracker';
import { OpenedTabs } from '../../../src/background/driver/opened-tabs';
import { PageRunner } from '../../../src/background/driver/page-runner';
import { fakeChrome } from '../../helpers/fakes';

function setup(handlers: Partial<HandlerTable>) {
  const chrome = fakeChrome();
  const log = new WorkerLog(100, Date.now, false);
  const tabs = new DrivenTabs(chrome.session, log);
  const dialogs = new DialogTracker(chrome, chrome.session, log);
  const ctx: DriverContext = {
    chrome,
    session: chrome.session,
    log,
    nav: new NavigationTracker(),
    dialogs,
    page: new PageRunner(chrome),
    tabs,
    opened: new OpenedTabs(tabs),
    pointers: new Map(),
    now: Date.now,
    imageSize: async () => ({ width: 1, height: 1 }),
    navigationGraceMs: 0,
    observer: new TabObserver(),
    idle: new IdleDebugger(dialogs, () => true, log),
  };
  const table = new ExecutedTable(chrome.session);
  return { executor: new Executor(ctx, table, { ...HANDLERS, ...handlers }), chrome, table };
}

// Loosely typed on purpose: one test makes the handler answer outside the protocol.
function clickHandler(run: () => Promise<unknown>): ActionHandler<'click'> {
  return { run: run as ActionHandler<'click'>['run'] };
}

const effects = { url: 'http://a.test/', title: 'A', navigated: false };
const clickRequest = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  action: 'click',
  params: { target: { selector: '#go' } },
  deadline: Date.now() + 10_000,
  target: { tabId: 7 },
  ...extra,
});

afterEach(() => {
  vi.useRealTimers();
});

describe('executor', () => {
  it('runs a valid request and answers with its validated result', async () => {
    const run = vi.fn(async () => effects);
    const { executor } = setup({ click: clickHandler(run) });
    const answer = await executor.handle(clickRequest('x1'));
    expect(answer).toEqual({ type: 'response', id: 'x1', ok: true, data: effects });
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('refuses a request whose deadline has passed, without running it', async () => {
    const run = vi.fn(async () => effects);
    const { executor } = setup({ click: clickHandler(run) });
    const answer = await executor.handle(clickRequest('x2', { deadline: Date.now() - 1 }));
    expect(answer?.ok ? null : answer?.error.code).toBe('TIMEOUT');
    expect(run).not.toHaveBeenCalled();
  });

  it('answers a replay of the same id from the table instead of clicking twice', async () => {
    const run = vi.fn(async () => effects);
    const { executor } = setup({ click: clickHandler(run) });
    const first = await executor.handle(clickRequest('x3'));
    const second = await executor.handle(clickRequest('x3'));
    expect(second).toEqual(first);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('rejects params outside the action schema with BAD_REQUEST naming the field', async () => {
    const run = vi.fn(async () => effects);
    const { executor } = setup({ click: clickHandler(run) });
    const answer = await executor.handle(
      clickRequest('x4', { params: { target: { selector: '#go' }, force: true } }),
    );
    expect(answer?.ok ? null : answer?.error.code).toBe('BAD_REQUEST');
    expect(answer?.ok ? '' : answer?.error.message).toMatch(/params.*force/);
    expect(run).not.toHaveBeenCalled();
  });

  it('answers an envelope it cannot parse with BAD_REQUEST when it has an id, and not at all without one', async () => {
    const { executor } = setup({});
    const withId = await executor.handle({ id: 'x5', action: 'click' });
    expect(withId?.ok ? null : withId?.error.code).toBe('BAD_REQUEST');
    expect(await executor.handle({ action: 'click' })).toBeNull();
  });

  it('says UNSUPPORTED_ACTION for daemon-local actions', async () => {
    const { executor } = setup({});
    const answer = await executor.handle({
      id: 'x6',
      action: 'session.list',
      params: {},
      deadline: Date.now() + 5_000,
    });
    expect(answer?.ok ? null : answer?.error.code).toBe('UNSUPPORTED_ACTION');
  });

  it('answers TIMEOUT when the action is still running at its deadline', async () => {
    vi.useFakeTimers();
    const { executor } = setup({ click: clickHandler(() => new Promise(() => {})) });
    const pending = executor.handle(clickRequest('x7', { deadline: Date.now() + 1_000 }));
    await vi.advanceTimersByTimeAsync(1_500);
    const answer = await pending;
    expect(answer?.ok ? null : answer?.error.code).toBe('TIMEOUT');
  });

  it('turns a result outside the protocol into DRIVER_ERROR', async () => {
    const { executor } = setup({ click: clickHandler(async () => ({ url: 'x' })) });
    const answer = await executor.handle(clickRequest('x8'));
    expect(answer?.ok ? null : answer?.error.code).toBe('DRIVER_ERROR');
  });

  it('does not repeat a non-resumable action that a previous worker life started', async () => {
    const run = vi.fn(async () => ({ url: 'http://a.test/', title: 'A' }));
    const { executor, chrome } = setup({ back: { run } });
    await chrome.session.set({ 'executed:x9': { state: 'running', at: Date.now() } });
    const answer = await executor.handle({
      id: 'x9',
      action: 'back',
      params: {},
      deadline: Date.now() + 5_000,
      target: { tabId: 3 },
    });
    expect(answer?.ok ? null : answer?.error.code).toBe('DRIVER_ERROR');
    expect(run).not.toHaveBeenCalled();
  });
});
