import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { ElementsDriverResult, SnapshotDriverResult } from '@bproxy/protocol';
import { pageBundlePath, type PageResult } from '@bproxy/page';
import { fails, inject, ok, open, pageBundle, usePageFixtures } from '../harness';

const env = usePageFixtures();

const url = (name: string): string => `${env.server.origin}/${name}`;

describe('element refs', () => {
  it('resolves refs from a read in later actions and keeps one ref per element', async () => {
    const page = await open(env.browser.context, url('counter.html'));
    const first = await ok<ElementsDriverResult>(page, 'elements');
    const second = await ok<ElementsDriverResult>(page, 'elements');
    const inc = first.elements.find((e) => e.name === 'Increment');
    expect(inc?.ref).toMatch(/^r\d+$/);
    expect(second.elements.find((e) => e.name === 'Increment')?.ref).toBe(inc?.ref);
    await ok(page, 'click', { target: { ref: inc?.ref } });
    expect(await page.evaluate('window.__clicks')).toBe(1);
    await page.close();
  });

  it('answers ELEMENT_HANDLE_STALE for a ref of a previous page, even with a selector that matches here', async () => {
    const page = await open(env.browser.context, url('counter.html'));
    const snap = await ok<SnapshotDriverResult>(page, 'snapshot');
    const button = snap.refs[0];
    expect(button).toBeDefined();
    await page.goto(url('counter.html'));
    await inject(page);
    const stale = await fails(page, 'click', { target: { ref: button?.ref } });
    expect(stale.code).toBe('ELEMENT_HANDLE_STALE');
    const foreign = await fails(page, 'click', { target: { ref: button?.ref, selector: button?.selector } });
    expect(foreign.code).toBe('ELEMENT_HANDLE_STALE');
    expect(await page.evaluate('window.__clicks')).toBe(0);
    const gone = await fails(page, 'click', { target: { selector: '#missing' } });
    expect(gone.code).toBe('ELEMENT_NOT_FOUND');
    await page.close();
  });

  it('refuses a ref whose element was replaced by a re-render, even with a selector that matches the new one', async () => {
    const page = await open(env.browser.context, url('counter.html'));
    const snap = await ok<SnapshotDriverResult>(page, 'snapshot');
    const button = snap.refs[0];
    // A framework re-render: the node is replaced by an equal one (with its own listener).
    await page.evaluate(() => {
      const old = document.getElementById('inc');
      const fresh = old?.cloneNode(true) as HTMLElement;
      fresh.addEventListener(
        'click',
        () => ((window as unknown as { __rerendered: number }).__rerendered = 1),
      );
      old?.replaceWith(fresh);
    });
    const stale = await fails(page, 'click', { target: { ref: button?.ref, selector: button?.selector } });
    expect(stale.code).toBe('ELEMENT_HANDLE_STALE');
    expect(await page.evaluate('window.__rerendered')).toBeUndefined();
    await page.close();
  });

  it('answers ELEMENT_HANDLE_STALE when the element was removed', async () => {
    const page = await open(env.browser.context, url('spa.html'));
    const links = await ok<ElementsDriverResult>(page, 'elements', { contains: 'settings' });
    await ok(page, 'click', { target: { ref: links.elements[0]?.ref } });
    expect(page.url()).toBe(`${env.server.origin}/spa/settings`);
    const inputs = await ok<ElementsDriverResult>(page, 'elements', { role: 'textbox' });
    const nick = inputs.elements[0];
    await ok(page, 'fill', { target: { ref: nick?.ref }, value: 'neo' });
    await ok(page, 'click', { target: { selector: '#save' } });
    expect(await page.textContent('#saved')).toBe('Saved neo');
    await ok(page, 'click', { target: { selector: 'a[data-view=home]' } });
    expect((await fails(page, 'fill', { target: { ref: nick?.ref }, value: 'x' })).code).toBe(
      'ELEMENT_HANDLE_STALE',
    );
    await page.close();
  });

  it('builds selectors that find the element again without its ref', async () => {
    const page = await open(env.browser.context, url('list.html'));
    const r = await ok<ElementsDriverResult>(page, 'elements', { limit: 1000 });
    expect(r.elements).toHaveLength(304);
    const unique = await page.evaluate(
      (selectors) => selectors.map((s) => document.querySelectorAll(s).length),
      r.elements.map((e) => e.selector),
    );
    expect(unique.every((n) => n === 1)).toBe(true);
    for (const el of [r.elements[0], r.elements[3], r.elements[200]]) {
      const byRef = await ok(page, 'inspect', { target: { ref: el?.ref } });
      const bySelector = await ok(page, 'inspect', { target: { selector: el?.selector } });
      expect(bySelector).toEqual(byRef);
    }
    await page.close();
  });
});

describe('installation', () => {
  it('installs once per document: a second injection keeps the registry', async () => {
    const page = await open(env.browser.context, url('counter.html'));
    const first = await ok<ElementsDriverResult>(page, 'elements');
    await inject(page);
    await inject(page);
    await ok(page, 'click', { target: { ref: first.elements[0]?.ref } });
    expect(await page.evaluate('window.__clicks')).toBe(1);
    expect(await page.evaluate('__bproxyPage.version')).toBe('0.1.0');
    await page.close();
  });

  it('works from an isolated world, as the drivers inject it, and the page still sees the events', async () => {
    const page = await env.browser.context.newPage();
    await page.goto(url('forms.html'));
    const cdp = await env.browser.context.newCDPSession(page);
    const tree = (await cdp.send('Page.getFrameTree')) as { frameTree: { frame: { id: string } } };
    const world = (await cdp.send('Page.createIsolatedWorld', {
      frameId: tree.frameTree.frame.id,
      worldName: 'bproxy',
    })) as { executionContextId: number };
    const evaluate = async (expression: string): Promise<unknown> => {
      const r = (await cdp.send('Runtime.evaluate', {
        expression,
        contextId: world.executionContextId,
        awaitPromise: true,
        returnByValue: true,
      })) as { result: { value?: unknown }; exceptionDetails?: unknown };
      if (r.exceptionDetails) throw new Error(JSON.stringify(r.exceptionDetails));
      return r.result.value;
    };
    await evaluate(await pageBundle());
    const fill = (await evaluate(
      `__bproxyPage.run('fill', { target: { selector: '#controlled' }, value: 'from isolated' })`,
    )) as PageResult;
    expect(fill.ok).toBe(true);
    expect(await page.textContent('#state')).toBe('from isolated');
    // The main world has no page API: the isolated world keeps it private.
    expect(await page.evaluate('typeof globalThis.__bproxyPage')).toBe('undefined');
    await page.close();
  });

  it('answers UNSUPPORTED_ACTION for an unknown action and BAD_REQUEST for bad params', async () => {
    const page = await open(env.browser.context, url('counter.html'));
    const unknown = await page.evaluate(() =>
      (
        globalThis as unknown as { __bproxyPage: { run: (a: string, p: unknown) => Promise<PageResult> } }
      ).__bproxyPage.run('launchRockets', {}),
    );
    expect(unknown.ok === false && unknown.error.code).toBe('UNSUPPORTED_ACTION');
    const bad = await page.evaluate(() =>
      (
        globalThis as unknown as { __bproxyPage: { run: (a: string, p: unknown) => Promise<PageResult> } }
      ).__bproxyPage.run('click', { target: 'el1' }),
    );
    expect(bad.ok === false && bad.error).toMatchObject({ code: 'BAD_REQUEST', category: 'validation' });
    expect(await ok(page, 'pageInfo')).toEqual({
      url: url('counter.html'),
      title: 'Counter',
      document: expect.stringMatching(/^[0-9a-f]{16}$/),
      navigations: 0,
    });
    await page.close();
  });

  it('ships a bundle without zod at the path Node drivers read', async () => {
    await pageBundle();
    const source = await readFile(pageBundlePath(), 'utf8');
    expect(source.length).toBeLessThan(100_000);
    expect(source).not.toMatch(/ZodError|zod/i);
    expect(source).toContain('__bproxyPage');
  });
});
