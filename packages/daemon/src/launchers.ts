/**
 * Browsers the daemon starts itself (the embedded headless Chromium, an attached or remote CDP browser).
 * Started on first use and again after they went away; concurrent callers share one start.
 */
import type { ClientRecord, ClientRegistry } from './clients';
import type { DriverConnections } from './drivers';
import type { Logger } from './logger';
import type { BrowserLauncher } from './server-options';

export class Launchers {
  private readonly starting = new Map<string, Promise<ClientRecord | null>>();

  constructor(
    private readonly list: readonly BrowserLauncher[],
    private readonly clients: ClientRegistry,
    private readonly drivers: DriverConnections,
    private readonly logger: Logger,
  ) {}

  names(): string[] {
    return this.list.map((l) => l.name);
  }

  has(name: string): boolean {
    return this.list.some((l) => l.name === name);
  }

  /** The connected client of a launcher (by name, or the first), starting it when needed. */
  async ensure(name?: string): Promise<ClientRecord | null> {
    const launcher = name === undefined ? this.list[0] : this.list.find((l) => l.name === name);
    if (!launcher) return null;
    const live = this.clients.connected().find((c) => c.launcher === launcher.name);
    if (live) return live;
    const inFlight = this.starting.get(launcher.name);
    if (inFlight) return inFlight;
    const start = (async () => {
      try {
        this.logger.info({ event: 'browser_launch', browser: launcher.name });
        const transport = await launcher.start();
        return await this.drivers.accept(transport, { remote: 'in-process', launcher: launcher.name });
      } catch (err) {
        this.logger.warn({ event: 'browser_launch_failed', browser: launcher.name, err: String(err) });
        throw err;
      } finally {
        this.starting.delete(launcher.name);
      }
    })();
    this.starting.set(launcher.name, start);
    return start;
  }
}
