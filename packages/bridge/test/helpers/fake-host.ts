/**
 * A BrowserHost whose processes, launches and port files the test sets: the far side of the
 * attach-or-launch and stop logic.
 */
import type { BrowserHost, BrowserProcess, LaunchedProcess } from '../../src/downstream/browser-host';

export interface FakeHost extends BrowserHost {
  processes: BrowserProcess[];
  activePorts: Map<string, { port: number; path: string }>;
  launches: { executablePath: string; args: readonly string[] }[];
  stopped: number[];
  /** What the next launch does. */
  nextLaunch: () => LaunchedProcess;
}

export function fakeHost(defaults: string[] = ['/home/u/.config/google-chrome']): FakeHost {
  const host: FakeHost = {
    kind: 'local',
    debuggerHost: '127.0.0.1',
    processes: [],
    activePorts: new Map(),
    launches: [],
    stopped: [],
    nextLaunch: () => ({
      pid: 42,
      listening: new Promise(() => undefined),
      exited: new Promise(() => undefined),
    }),
    async list() {
      return host.processes;
    },
    async find(pid) {
      return host.processes.find((p) => p.pid === pid);
    },
    async launch(executablePath, args) {
      host.launches.push({ executablePath, args });
      return host.nextLaunch();
    },
    async stop(pid) {
      host.stopped.push(pid);
    },
    async readActivePort(dir) {
      return host.activePorts.get(dir);
    },
    async removeActivePort(dir) {
      host.activePorts.delete(dir);
    },
    sameProfile: (a, b) => a.replace(/\/$/, '') === b.replace(/\/$/, ''),
    async defaultProfile() {
      return '/home/u/.bproxy/bridge-profile';
    },
    async chromeDefaultProfiles() {
      return defaults;
    },
  };
  return host;
}
