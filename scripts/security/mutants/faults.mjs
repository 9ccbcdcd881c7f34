// Removals of the threat model's "Availability and integrity under faults": exactly-once, draining,
// stale state, bounded retries, the farm's caps and the idle rule.

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  {
    id: 'ledger-replays',
    protects: 'a repeated request id gets the recorded answer, never a second execution',
    edits: [
      {
        file: 'packages/daemon/src/http/command.ts',
        find: "  if (seen.kind === 'same') return answer({ ...facts, replayed: true }, await seen.answer);",
        replace: '',
      },
    ],
    kills: [
      'packages/daemon/test/faults-socket.test.ts',
      'packages/daemon/test/faults-model.test.ts › reconnect and retry model › keeps exactly-once and idle invariants under replays, takeovers, lost and late answers',
    ],
  },
  {
    id: 'throttle-monotonic',
    protects: 'the pairing throttle runs on the monotonic clock, whatever the wall clock does',
    edits: [
      {
        file: 'packages/daemon/src/http/server.ts',
        find: '    limiter: new PairingRateLimit(() => clock.monotonic()),',
        replace: '    limiter: new PairingRateLimit(() => clock.now()),',
      },
    ],
    kills: ['packages/daemon/test/faults-clock-log.test.ts'],
  },
  {
    id: 'daemon-drains-on-stop',
    protects: 'a stopping daemon answers the requests in flight before it exits',
    build: true,
    edits: [
      {
        file: 'packages/daemon/src/lifecycle/start-daemon.ts',
        find: '      await server.shutdown();\n    } catch (error) {',
        replace: '      void server;\n    } catch (error) {',
      },
    ],
    kills: ['tests/e2e/faults-daemon-process.test.ts'],
  },
  {
    id: 'daemon-stop-awaits-browsers',
    protects: 'a stopping daemon waits for the browsers it started to be gone',
    edits: [
      {
        file: 'packages/daemon/src/http/server.ts',
        find: '  await deps.launchers.stopAll(browserStopMs);',
        replace: '  void deps.launchers.stopAll(browserStopMs);',
      },
    ],
    kills: [
      'packages/daemon/test/shutdown.test.ts › shutdown and the browsers the daemon started › waits for a started browser to be gone (exited, its folder removed) before it returns',
    ],
  },
  {
    id: 'daemon-stop-bounded',
    protects: 'a stopping daemon waits for its browsers within a bound, never for ever',
    edits: [
      {
        file: 'packages/daemon/src/browsers/launchers.ts',
        find: "const settled = await Promise.race([Promise.allSettled(waits).then(() => 'stopped' as const), bound]);",
        replace: "const settled = await Promise.allSettled(waits).then(() => (bound ? 'stopped' : 'bound'));",
      },
    ],
    kills: [
      'packages/daemon/test/shutdown.test.ts › shutdown and the browsers the daemon started › returns within its bound when a browser never finishes stopping, and says so in the log',
    ],
  },
  {
    id: 'command-result-checked',
    protects: "the command route's result is checked against the action's result schema",
    edits: [
      {
        file: 'packages/daemon/src/http/command.ts',
        find: '    return checkResult(deps, request, withSessionNotes(deps.sessions, request, await execute(deps, ctx)));',
        replace: '    return withSessionNotes(deps.sessions, request, await execute(deps, ctx));',
      },
    ],
    kills: [
      "packages/daemon/test/http/command.test.ts › the result the command route returns › is checked against the action's result schema: one outside it is an INTERNAL_ERROR, and the daemon keeps serving",
    ],
  },
  {
    id: 'stale-lock-reclaimed',
    protects: "a dead daemon's lock is reclaimed, so the next start works",
    build: true,
    edits: [
      {
        file: 'packages/client/src/lifecycle/lockfile.ts',
        find: '      removeStateFile(paths.pid);\n      for (const file of transientFiles(paths)) removeStateFile(file);\n    }\n    if (!createExclusive',
        replace: '    }\n    if (!createExclusive',
      },
    ],
    kills: ['tests/e2e/faults-daemon-process.test.ts'],
  },
  {
    id: 'cdp-crash-answers',
    protects: 'a request in flight when the browser dies is answered at once, saying the browser went away',
    build: true,
    edits: [
      {
        file: 'packages/cdp/src/driver/failure.ts',
        find: '  if (error instanceof CdpClosedError)\n',
        replace: '  if (error === null)\n',
      },
    ],
    kills: ['tests/e2e/faults-cdp-crash.test.ts'],
  },
  {
    id: 'extension-backoff',
    protects: 'the extension reconnects with bounded, backed-off retries, never a spin',
    build: true,
    edits: [
      {
        file: 'packages/extension/src/background/daemon/backoff.ts',
        find: '{ baseMs: 250, capMs: 10_000 }',
        replace: '{ baseMs: 1, capMs: 2 }',
      },
    ],
    kills: ['tests/e2e/faults-extension-browser.test.ts'],
  },
  {
    id: 'farm-cap',
    protects: "bproxy's cap on a farm's browsers answers TOO_MANY_BROWSERS",
    build: true,
    edits: [
      {
        file: 'packages/daemon/src/browsers/launchers.ts',
        find: '    if (this.openFor(launcher) >= max) {',
        replace: '    if (false) {',
      },
    ],
    kills: ['tests/e2e/farm-browserless.test.ts'],
  },
  {
    id: 'farm-browser-per-session',
    protects: "one session's farm browser is never another's",
    edits: [
      {
        file: 'packages/daemon/src/browsers/launchers.ts',
        find: '      .find((c) => c.launcher === launcher.name && c.session === session);',
        replace: '      .find((c) => c.launcher === launcher.name);',
      },
    ],
    kills: ['packages/daemon/test/farm-sessions.test.ts'],
  },
  {
    id: 'idle-waits-for-requests',
    protects: 'an implicit daemon stops only when no request is in flight',
    build: true,
    edits: [
      {
        file: 'packages/daemon/src/idle-exit.ts',
        find: '    if (this.afterMs === null || this.finished || this.inFlight > 0 || this.timer !== null) return;',
        replace: '    if (this.afterMs === null || this.finished || this.timer !== null) return;',
      },
      {
        file: 'packages/daemon/src/idle-exit.ts',
        find: '    if (this.inFlight > 0 || this.afterMs === null) return;',
        replace: '    if (this.afterMs === null) return;',
      },
    ],
    kills: ['packages/daemon/test/idle-exit.test.ts', 'tests/e2e/idle-lifetime.test.ts'],
  },
];
