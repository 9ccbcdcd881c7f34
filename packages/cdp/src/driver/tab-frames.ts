/**
 * The frames of one tab that the page script cannot enter from the top document: cross-origin frames,
 * in the tab's own renderer or (with site isolation) in targets of their own. Out-of-process frames are
 * attached as they appear (Target.setAutoAttach, flat sessions), each frame's isolated world is tracked
 * by its execution contexts, and the driver kit's FramePages runs the page bundle in any of them.
 * A frame's key is its CDP frame id, which stays the same when the frame navigates; its new document
 * has a new page script, so refs read before are stale there.
 */
import { FOCUS_AT_POINT, fail, pageAnswerData, type FramePages } from '@bproxy/driver';
import type { PageAction } from '@bproxy/page';
import { isContextGoneError } from '../cdp/errors';
import { CdpSession } from '../cdp/session';
import type { FrameTree } from '../cdp/protocol-types';
import { callInContext, describeException, isolatedContext, runPage } from './page-runner';
import { WORLD_NAME, type PageTab } from './page-tab';

/** Answers the page script's ref of the element it is called on (DOM.resolveNode's object). */
const REF_OF = `function () {
  const page = globalThis.__bproxyPage;
  return page && typeof page.refOf === 'function' ? page.refOf(this) : null;
}`;

interface World {
  session: CdpSession;
  id: number;
}

export class TabFrames {
  /** Out-of-process frames: frame id (= target id) → the flat session of its target. */
  private readonly targets = new Map<string, CdpSession>();
  /** The bproxy world's context per frame. */
  private readonly worlds = new Map<string, World>();
  /** Every frame id seen in this tab (a document committed, or a script context made in it). */
  private readonly seen = new Set<string>();

  /** Whether `frameId` is a frame of this tab, out-of-process ones and theirs included. */
  has(frameId: string): boolean {
    return this.seen.has(frameId) || this.targets.has(frameId);
  }

  private see(frameId: string): void {
    if (this.seen.has(frameId)) return;
    // Bounded: a page making frames without end forgets its oldest ones.
    if (this.seen.size >= 10_000) {
      const oldest = this.seen.values().next();
      if (oldest.done !== true) this.seen.delete(oldest.value);
    }
    this.seen.add(frameId);
  }

  constructor(private readonly tab: PageTab) {}

  /** Follows `session`'s frames and attaches its out-of-process ones (called for the tab and each frame target). */
  async watch(session: CdpSession, timeoutMs: number): Promise<void> {
    const off = [
      session.on('Page.frameNavigated', ({ frame }) => this.see(frame.id)),
      session.on('Runtime.executionContextCreated', ({ context }) => {
        const frameId = context.auxData?.frameId;
        if (frameId !== undefined) this.see(frameId);
        if (context.name === WORLD_NAME && frameId !== undefined)
          this.worlds.set(frameId, { session, id: context.id });
      }),
      session.on('Runtime.executionContextDestroyed', ({ executionContextId }) => {
        for (const [frame, w] of this.worlds)
          if (w.session === session && w.id === executionContextId) this.worlds.delete(frame);
      }),
      session.on('Runtime.executionContextsCleared', () => this.dropSession(session)),
      session.on('Target.attachedToTarget', ({ sessionId, targetInfo }) => {
        if (targetInfo.type !== 'iframe') return;
        const child = new CdpSession(session.connection, sessionId);
        this.targets.set(targetInfo.targetId, child);
        void this.setupChild(child, timeoutMs).catch(() => undefined);
      }),
      session.on('Target.detachedFromTarget', ({ sessionId }) => {
        for (const [frame, child] of this.targets) {
          if (child.sessionId !== sessionId) continue;
          this.targets.delete(frame);
          this.dropSession(child);
        }
      }),
    ];
    session.connection.onClose(() => {
      for (const stop of off) stop();
    });
    await session.send(
      'Target.setAutoAttach',
      { autoAttach: true, waitForDebuggerOnStart: false, flatten: true, filter: [{ type: 'iframe' }] },
      timeoutMs,
    );
  }

  private async setupChild(child: CdpSession, timeoutMs: number): Promise<void> {
    await Promise.all([
      child.send('Runtime.enable', {}, timeoutMs),
      child.send(
        'Page.addScriptToEvaluateOnNewDocument',
        { source: this.tab.bundle, worldName: WORLD_NAME, runImmediately: true },
        timeoutMs,
      ),
      this.watch(child, timeoutMs),
    ]);
  }

  private dropSession(session: CdpSession): void {
    for (const [frame, w] of this.worlds) if (w.session === session) this.worlds.delete(frame);
  }

  /** The session a frame lives in: its own target's, or one whose renderer holds it. */
  private async world(frame: string, timeoutMs: number): Promise<World> {
    const known = this.worlds.get(frame);
    if (known !== undefined) return known;
    const own = this.targets.get(frame);
    const sessions = own !== undefined ? [own] : [this.tab.session, ...this.targets.values()];
    for (const session of sessions) {
      try {
        const created = await session.send(
          'Page.createIsolatedWorld',
          { frameId: frame, worldName: WORLD_NAME, grantUniveralAccess: true },
          timeoutMs,
        );
        const world = { session, id: created.executionContextId };
        this.worlds.set(frame, world);
        return world;
      } catch {
        // Not this session's frame: try the next.
      }
    }
    return fail('ELEMENT_HANDLE_STALE', 'the frame is gone (closed, or replaced by a navigation)');
  }

  /** The driver kit's FramePages for this tab; every call bounded by `remaining()`. */
  pages(remaining: () => number): FramePages {
    // One look per parent frame and read: which child frame each frame element holds.
    const owners = new Map<string | null, Promise<Map<string, string>>>();
    return {
      run: (frame, action, params) => this.run(frame, action, params, remaining()),
      focusAt: async (frame, point, caretToEnd) => {
        const value = await this.callFunction(
          frame,
          FOCUS_AT_POINT,
          [point.x, point.y, caretToEnd],
          remaining(),
        );
        return value === true;
      },
      frameOf: async (parent, slot) => {
        let known = owners.get(parent);
        if (known === undefined) {
          known = this.ownersIn(parent, remaining());
          owners.set(parent, known);
        }
        const key = (await known).get(slot.ref);
        return key === undefined
          ? { reason: 'the browser has no frame for it (refused or not loaded)' }
          : { key };
      },
    };
  }

  private async run(
    frame: string | null,
    action: PageAction,
    params: unknown,
    timeoutMs: number,
  ): Promise<unknown> {
    if (frame === null) return runPage(this.tab, action, params, { timeoutMs, retryOnNavigation: true });
    for (let attempt = 0; ; attempt++) {
      const world = await this.world(frame, timeoutMs);
      try {
        const answer = await callInContext(
          world.session,
          world.id,
          this.tab.bundle,
          action,
          params,
          null,
          timeoutMs,
        );
        if ('missing' in answer) fail('DRIVER_ERROR', 'the page bundle did not install itself in the frame');
        return pageAnswerData(answer, action);
      } catch (error) {
        if (!isContextGoneError(error) || attempt >= 2) throw error;
        this.worlds.delete(frame);
      }
    }
  }

  private async callFunction(
    frame: string | null,
    functionDeclaration: string,
    args: unknown[],
    timeoutMs: number,
  ): Promise<unknown> {
    const world =
      frame === null
        ? { session: this.tab.session, id: await isolatedContext(this.tab, timeoutMs) }
        : await this.world(frame, timeoutMs);
    const reply = await world.session.send(
      'Runtime.callFunctionOn',
      {
        functionDeclaration,
        executionContextId: world.id,
        arguments: args.map((value) => ({ value })),
        returnByValue: true,
        awaitPromise: true,
      },
      timeoutMs,
    );
    if (reply.exceptionDetails !== undefined)
      fail('DRIVER_ERROR', `driver script threw ${describeException(reply.exceptionDetails)}`);
    return reply.result.value;
  }

  /** The frames whose owner elements lie in `parent`'s document, by those elements' refs (DOM.getFrameOwner). */
  private async ownersIn(parent: string | null, timeoutMs: number): Promise<Map<string, string>> {
    const world =
      parent === null
        ? { session: this.tab.session, id: await isolatedContext(this.tab, timeoutMs) }
        : await this.world(parent, timeoutMs);
    const candidates = new Set<string>(this.targets.keys());
    try {
      const tree = await world.session.send('Page.getFrameTree', {}, timeoutMs);
      for (const id of frameIds(tree.frameTree)) candidates.add(id);
    } catch {
      // A frame target's tree may not be asked for; its out-of-process children are known anyway.
    }
    candidates.delete(parent ?? this.tab.mainFrameId);
    const byRef = new Map<string, string>();
    for (const frameId of candidates) {
      let owner: number;
      try {
        owner = (await world.session.send('DOM.getFrameOwner', { frameId }, timeoutMs)).backendNodeId;
      } catch {
        continue; // not a frame of this document
      }
      const resolved = await world.session
        .send('DOM.resolveNode', { backendNodeId: owner, executionContextId: world.id }, timeoutMs)
        .catch(() => null);
      const objectId = resolved?.object.objectId;
      if (objectId === undefined) continue;
      const reply = await world.session.send(
        'Runtime.callFunctionOn',
        { functionDeclaration: REF_OF, objectId, arguments: [], returnByValue: true, awaitPromise: false },
        timeoutMs,
      );
      if (typeof reply.result.value === 'string') byRef.set(reply.result.value, frameId);
    }
    return byRef;
  }
}

function* frameIds(tree: FrameTree): Generator<string> {
  yield tree.frame.id;
  for (const child of tree.childFrames ?? []) yield* frameIds(child);
}
