/**
 * Cross-origin frames, the same on every driver: a checkout whose card form lives in an iframe of
 * another site (another port on another loopback address, so an out-of-process frame), read with its
 * origin marked, filled and submitted by handles only through the CLI, and read and clicked through
 * MCP; the payment site checks what it received. A frame of another origin on the page's own site (the
 * same renderer process) is marked with its origin alike. A frame that navigated leaves its handles stale, and
 * frames that cannot be read (refused, sandboxed) are named with the reason, never silently missing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowClasses } from '../allow-classes';
import { serveFrameSites, type FrameSites } from '../frame-pages';
import { handleOf, McpClient } from '../mcp';
import { until } from '../wait';
import type { DriverUnderTest, PageElement, SuiteEnv } from '../agent';

const T = 60_000;

interface Unread {
  src: string;
  reason?: string;
}

interface FramedElement extends PageElement {
  frame?: string;
}

export function defineFrameSuite(driver: DriverUnderTest): void {
  describe(`cross-origin frames on ${driver.label}`, () => {
    let env: SuiteEnv | undefined;
    let sites: FrameSites | undefined;
    const e = (): { env: SuiteEnv; sites: FrameSites } => {
      if (!env || !sites) throw new Error(`${driver.label} did not start`);
      return { env, sites };
    };
    const session = async (): Promise<string> => {
      const { env: x, sites: f } = e();
      const created = await x.cli.ok<{ session: string }>(['session', 'create', '--pacing', 'fast']);
      await x.cli.ok(['tab', 'open', '-s', created.session, f.checkout, '--browser', x.browser]);
      return created.session;
    };
    /** Elements until the card frame is in them (its document may still be loading after the tab opened). */
    const cardElements = async (s: string): Promise<FramedElement[]> =>
      until('the card frame to be read', async () => {
        const r = await e().env.cli.ok<{ elements: FramedElement[]; crossOriginFrames?: Unread[] }>([
          'elements',
          '-s',
          s,
        ]);
        if (r.elements.some((x) => x.name === 'Card number')) return r.elements;
        throw new Error(`not read yet: ${JSON.stringify(r.crossOriginFrames)}`);
      });
    const named = (all: FramedElement[], name: string): FramedElement => {
      const found = all.find((x) => x.name === name);
      if (!found) throw new Error(`no element "${name}" in ${JSON.stringify(all.map((x) => x.name))}`);
      return found;
    };

    beforeAll(async () => {
      env = await driver.start();
      // The framed checkout's "Pay 42.00" is pressed: a person allowed pay/submit (approvals).
      allowClasses(env.cli.home, ['submit']);
      sites = await serveFrameSites();
    }, 120_000);
    afterAll(async () => {
      await sites?.close();
    });

    it(
      'reads the card form inside the cross-origin frame, marked with its origin, and names the frames it could not read',
      async () => {
        const { env: x, sites: f } = e();
        const s = await session();
        const elements = await cardElements(s);
        expect(named(elements, 'Coupon').frame).toBeUndefined();
        expect(named(elements, 'Card number')).toMatchObject({ tag: 'input', frame: f.payOrigin });
        expect(named(elements, 'Country')).toMatchObject({ tag: 'select', frame: f.payOrigin });
        // Another port of the shop's own site: the same process, still another origin, marked alike.
        const chat = await until('the help frame to be read', async () => {
          const r = await x.cli.ok<{ elements: FramedElement[] }>(['elements', '-s', s]);
          return r.elements.find((el) => el.name === 'Chat with us');
        });
        expect(chat).toMatchObject({ tag: 'button', frame: f.helpOrigin });

        const snap = await x.cli.ok<{ snapshot: string; crossOriginFrames?: Unread[] }>([
          'snapshot',
          '-s',
          s,
        ]);
        const lines = snap.snapshot.split('\n');
        const frameLine = lines.findIndex((l) => l.startsWith(`iframe "Card payment" frame ${f.payOrigin}`));
        expect(frameLine, snap.snapshot).toBeGreaterThanOrEqual(0);
        // The frame's outline sits below its line, indented, with handles like any other.
        expect(lines[frameLine + 1]).toMatch(/^ {2}/);
        expect(snap.snapshot).toMatch(/ {2}textbox "Card number" \[el\d+\]/);
        expect(snap.snapshot).toMatch(/\[Card terms\]\[ln\d+\]|link "Card terms" \[ln\d+\]/);
        expect(
          lines.some((l) => l.startsWith(`iframe "Help" frame ${f.helpOrigin}`)),
          snap.snapshot,
        ).toBe(true);
        // The refused frame is named, on its line and in crossOriginFrames, with why.
        expect(snap.snapshot).toMatch(/iframe "Offline" \(not read: [^)]+\)/);
        const refused = snap.crossOriginFrames?.find((u) => u.src === f.refusedSrc);
        expect(refused?.reason, JSON.stringify(snap.crossOriginFrames)).toBeTruthy();
        // The sandboxed frame is read or named, never silently missing.
        const badge = lines.find((l) => l.startsWith('iframe "Badge"')) ?? '';
        expect(badge).toMatch(/frame http:\/\/127\.0\.0\.2:\d+|\(not read: .+\)/);

        const links = await x.cli.ok<{ links: { text: string; href: string; frame?: string }[] }>([
          'links',
          '-s',
          s,
        ]);
        expect(links.links.find((l) => l.text === 'Card terms')).toMatchObject({
          href: `${f.payOrigin}/terms.html`,
          frame: f.payOrigin,
        });
        const text = await x.cli.ok<{ text: string }>(['text', '-s', s]);
        expect(text.text).toContain('Total: 42.00 EUR');
        expect(text.text).toContain(`[frame ${f.payOrigin}]`);
        expect(text.text).toContain(`[frame ${f.helpOrigin}]`);
        expect(text.text).toContain('Card number');
        await x.cli.ok(['session', 'close', '-s', s]);
      },
      T,
    );

    it(
      'fills and submits the card form by handles only, the payment site receives it, and the frame’s handles then go stale',
      async () => {
        const { env: x, sites: f } = e();
        const before = f.charges.length;
        const s = await session();
        const all = await cardElements(s);
        const h = (name: string): string => named(all, name).handle;
        const [card, expiry, holder, country, pay, coupon] = [
          h('Card number'),
          h('Expiry'),
          h('Name on card'),
          h('Country'),
          h('Pay 42.00'),
          h('Coupon'),
        ];
        await x.cli.ok(['fill', '-s', s, coupon, 'SPRING']);
        await x.cli.ok(['click', '-s', s, card]);
        await x.cli.ok(['fill', '-s', s, card, '4242 4242 4242 4242']);
        await x.cli.ok(['fill', '-s', s, expiry, '12/30']);
        await x.cli.ok(['type', '-s', s, 'Ada Lovelace', '--into', holder]);
        const selected = await x.cli.ok<{ selected: string[] }>(['select', '-s', s, country, 'NL']);
        expect(selected.selected).toEqual(['NL']);
        // Trusted input reaches into the frame: no synthetic stand-in.
        const paid = await x.cli.ok<{ input?: string }>(['click', '-s', s, pay]);
        expect(paid.input).toBeUndefined();
        await until('the payment site to receive the charge', () => f.charges.length === before + 1);
        expect(f.charges[before]).toEqual({
          card: '4242 4242 4242 4242',
          expiry: '12/30',
          holder: 'Ada Lovelace',
          country: 'NL',
        });
        // The frame navigated to its answer: handles read in it before are stale; the page's own stay.
        const stale = await x.cli.fail(['fill', '-s', s, card, '1111']);
        expect(stale.code).toBe('ELEMENT_HANDLE_STALE');
        const inspected = await x.cli.ok<{ value?: string }>(['inspect', '-s', s, coupon]);
        expect(inspected.value).toBe('SPRING');
        const after = await until('the frame to show its answer', async () => {
          const r = await x.cli.ok<{ snapshot: string }>(['snapshot', '-s', s]);
          return r.snapshot.includes('Payment accepted for Ada Lovelace') ? r.snapshot : undefined;
        });
        expect(after).toContain(`iframe "Card payment" frame ${f.payOrigin}`);
        await x.cli.ok(['session', 'close', '-s', s]);
      },
      T,
    );

    it(
      'through MCP: the snapshot shows the frame’s controls, and a frame link clicked by its handle navigates the frame',
      async () => {
        const { env: x, sites: f } = e();
        const mcp = await McpClient.start({ ...x.cli.environment(), BPROXY_SESSION: '' }, [
          '--browser',
          x.browser,
          '--pacing',
          'fast',
        ]);
        try {
          await mcp.ok('tab_open', { url: f.checkout });
          const snap = await until('the card frame in the MCP snapshot', async () => {
            const text = await mcp.ok('snapshot');
            return /textbox "Card number" \[el\d+\]/.test(text) ? text : undefined;
          });
          expect(snap).toContain(`frame ${f.payOrigin}`);
          expect(snap).toMatch(/Cross-origin frames not read: .*127\.0\.0\.1:\d+\/ \(.+\)/);
          await mcp.ok('click', { target: handleOf(snap, /Card terms/) });
          await until('the frame to show the terms', async () =>
            (await mcp.ok('text')).includes('Card terms: none worth reading.'),
          );
        } finally {
          await mcp.close();
        }
      },
      T,
    );
  });
}
