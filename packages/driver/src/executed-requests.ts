/**
 * Exactly-once answers to forwarded requests. The daemon sends a request again after a connection
 * drop, so every driver looks the request id up before acting: a request still running is joined, a
 * recorded answer is returned as it is, and only an unknown id runs. Each driver keeps its own storage
 * behind this interface (the extension in chrome.storage.session, which survives a worker restart; the
 * CDP driver in memory, which lives as long as its browser connection).
 */
import { actionDef, type BproxyForwardedRequest, type DriverResponseMessage } from '@bproxy/protocol';
import { lateError } from './deadline';

export interface ExecutedOutcome {
  readonly response: DriverResponseMessage;
  /** Answered from the record (or by joining the first run) instead of running again. */
  readonly replayed: boolean;
}

/** Runs one request; `resumed` says a previous driver life started it and died before answering. */
export type Execute = (resumed: boolean) => Promise<DriverResponseMessage>;

export interface ExecutedRequests {
  /**
   * Runs `execute` at most once per id. `rerunnable` says whether the request may run again when its
   * answer could not be kept (reads only).
   */
  run(id: string, execute: Execute, rerunnable: boolean): Promise<ExecutedOutcome>;
}

export interface AnswerOptions {
  readonly now?: () => number;
  /** Called when the request arrived after its deadline and is answered TIMEOUT without running. */
  readonly onLate?: () => void;
}

/**
 * Answers `request` through `table`: a replay gets the recorded answer whatever its deadline; a new
 * request past its deadline is refused with TIMEOUT and never run; anything else runs `perform`.
 */
export function answerOnce(
  table: ExecutedRequests,
  request: BproxyForwardedRequest,
  perform: Execute,
  options: AnswerOptions = {},
): Promise<ExecutedOutcome> {
  const now = options.now ?? Date.now;
  const execute: Execute = async (resumed) => {
    if (now() >= request.deadline) {
      options.onLate?.();
      return { type: 'response', id: request.id, ok: false, error: lateError(request.action) };
    }
    return perform(resumed);
  };
  return table.run(request.id, execute, !actionDef(request.action).destructive);
}
