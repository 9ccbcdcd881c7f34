/**
 * What the action suite needs from a driver, and a thin agent over the CLI: a fast-paced session
 * with a tab on a fixture page, the reads the suite asserts on, and PNG header parsing for
 * screenshots. Driver-agnostic: the driver only says how to start and which --browser name it has.
 */
import { readFileSync } from 'node:fs';
import type { Cli } from './cli';
import type { FixtureServer } from './pages';

export interface SuiteEnv {
  cli: Cli;
  pages: FixtureServer;
  /** The client name to pass as `tab open --browser NAME`. */
  browser: string;
}

export interface DriverUnderTest {
  /** Shown in the describe title, e.g. "extension" or "cdp (launched headless)". */
  label: string;
  /** Starts the daemon and the browser once; every later call returns the same environment. */
  start(): Promise<SuiteEnv>;
}

export interface Link {
  handle: string;
  text: string;
  href: string;
}

export interface PageElement {
  handle: string;
  role: string;
  name: string;
  tag: string;
  value?: string;
  checked?: boolean;
}

export interface Inspected {
  tag: string;
  role: string;
  name: string;
  value?: string;
  checked?: boolean;
  visible: boolean;
  enabled: boolean;
}

export class Agent {
  constructor(readonly env: SuiteEnv) {}

  get cli(): Cli {
    return this.env.cli;
  }

  url(page: string): string {
    return this.env.pages.url(page);
  }

  /** A fresh fast-paced session with one tab open (and bound) on `page`. */
  async session(page: string): Promise<string> {
    const created = await this.cli.ok<{ session: string }>(['session', 'create', '--pacing', 'fast']);
    await this.openTab(created.session, page);
    return created.session;
  }

  async openTab(session: string, page: string): Promise<{ tab: string; title: string; url: string }> {
    return this.cli.ok(['tab', 'open', '-s', session, this.url(page), '--browser', this.env.browser]);
  }

  async text(session: string): Promise<string> {
    return (await this.cli.ok<{ text: string }>(['text', '-s', session])).text;
  }

  async links(session: string): Promise<Link[]> {
    return (await this.cli.ok<{ links: Link[] }>(['links', '-s', session])).links;
  }

  async elements(session: string): Promise<PageElement[]> {
    return (await this.cli.ok<{ elements: PageElement[] }>(['elements', '-s', session])).elements;
  }

  /**
   * Handles of the elements with these accessible names, from one read (a later read keeps the handle
   * of an element that is the same node, so taking them all at once is for brevity).
   */
  async handles<const N extends readonly string[]>(
    session: string,
    ...names: N
  ): Promise<{ [K in keyof N]: string }> {
    const all = await this.elements(session);
    return names.map((name) => {
      const found = all.find((e) => e.name === name);
      if (!found) throw new Error(`no element named "${name}" in ${JSON.stringify(all.map((e) => e.name))}`);
      return found.handle;
    }) as { [K in keyof N]: string };
  }

  async element(session: string, name: string): Promise<string> {
    const [handle] = await this.handles(session, name);
    if (handle === undefined) throw new Error(`no handle for "${name}"`);
    return handle;
  }

  async link(session: string, text: string): Promise<string> {
    const all = await this.links(session);
    const found = all.find((l) => l.text === text);
    if (!found) throw new Error(`no link "${text}" in ${JSON.stringify(all.map((l) => l.text))}`);
    return found.handle;
  }

  async inspect(session: string, handle: string): Promise<Inspected> {
    return this.cli.ok<Inspected>(['inspect', '-s', session, handle]);
  }

  async close(session: string): Promise<void> {
    await this.cli.ok(['session', 'close', '-s', session]);
  }
}

/** Width and height from a PNG's IHDR chunk, after checking the 8-byte signature. */
export function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (!bytes.subarray(0, 8).equals(signature)) throw new Error(`${file} is not a PNG`);
  if (bytes.subarray(12, 16).toString('latin1') !== 'IHDR') throw new Error(`${file} has no IHDR first`);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}
