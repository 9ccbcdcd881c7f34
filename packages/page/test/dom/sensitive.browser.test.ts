import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { SensitiveTarget } from '@bproxy/protocol';
import { CORPUS, inject, ok, open, usePageFixtures } from '../harness';

const env = usePageFixtures();

/** The approvals' verdict on the element a selector names, on a page made of `html`. */
async function verdicts(
  html: string,
  targets: { selector: string; enter?: boolean }[],
): Promise<SensitiveTarget[]> {
  const page = await env.browser.context.newPage();
  try {
    await page.setContent(html);
    await inject(page);
    const out: SensitiveTarget[] = [];
    for (const t of targets) {
      const r = await ok<{ sensitive?: SensitiveTarget }>(page, 'inspect', {
        target: { selector: t.selector },
        approval: t.enter === true ? 'enter' : 'click',
      });
      if (!r.sensitive) throw new Error(`no verdict for ${t.selector}`);
      out.push(r.sensitive);
    }
    return out;
  } finally {
    await page.close();
  }
}

const CHECKOUT = `<form id="f">
  <label>Name <input name="n" value="Ada"></label>
  <label>Card number <input name="cn" autocomplete="cc-number" value="4242424242424242"></label>
  <label>CVC <input name="cvc" autocomplete="cc-csc" value="123"></label>
  <input id="email" name="e" value="a@example.test">
  <button id="go">Continue</button>
  <button id="back" type="button">Back</button>
</form>`;

describe('approvals recognition', () => {
  it('classes a form with card fields as submit, by its submit button or Enter in a field, with secret values masked', async () => {
    const [go, enter, back] = await verdicts(CHECKOUT, [
      { selector: '#go' },
      { selector: '#email', enter: true },
      { selector: '#back' },
    ]);
    expect(go?.class).toBe('submit');
    expect(go?.why).toMatch(/cc-number/);
    expect(go?.fields).toEqual([
      { name: 'Name', type: 'text', value: 'Ada' },
      { name: 'Card number', type: 'text', value: '••••' },
      { name: 'CVC', type: 'text', value: '••••' },
      { name: 'e', type: 'text', value: 'a@example.test' },
    ]);
    expect(JSON.stringify(go)).not.toMatch(/4242|123"/);
    expect(enter?.class).toBe('submit');
    // A plain button in the same form submits nothing.
    expect(back?.class).toBeUndefined();
  });

  it('classes controls by their accessible name: pay, send, delete', async () => {
    const html = `
      <button id="pay">Pay now</button><button id="order">Place order</button>
      <input id="sub" type="submit" value="Subscribe">
      <div role="button" id="send" aria-label="Send message"></div><form><textarea name="m"></textarea><button id="reply"><span>Reply</span></button></form>
      <button id="del">Delete</button><button id="cancel">Cancel subscription</button>
      <div role="menuitem" id="close">Close account</div>`;
    const got = await verdicts(
      html,
      ['#pay', '#order', '#sub', '#send', '#reply span', '#del', '#cancel', '#close'].map((selector) => ({
        selector,
      })),
    );
    expect(got.map((v) => v.class)).toEqual([
      'submit',
      'submit',
      'submit',
      'send',
      'send',
      'delete',
      'delete',
      'delete',
    ]);
    expect(got[0]?.name).toBe('Pay now');
  });

  it('leaves look-alikes alone: links, longer prose, words that only start the same, forms without card fields', async () => {
    const html = `
      <a id="link" href="#x">Delete</a>
      <button id="payment">Payment methods</button>
      <button id="sent">Sent items</button>
      <button id="prose">Send us your feedback about this page any time you like</button>
      <button id="cancel">Cancel</button>
      <button id="opener" type="button">Reply</button>
      <form><input id="q" name="q" autocomplete="off"><button id="search">Search</button></form>`;
    const got = await verdicts(html, [
      { selector: '#link' },
      { selector: '#payment' },
      { selector: '#sent' },
      { selector: '#prose' },
      { selector: '#cancel' },
      { selector: '#opener' },
      { selector: '#search' },
      { selector: '#q', enter: true },
    ]);
    expect(got).toHaveLength(8);
    expect(got.filter((v) => v.class !== undefined)).toEqual([]);
  });

  it('takes a link dressed as a button or menu item for the link it is; a # or javascript: one stays a control', async () => {
    const html = `
      <nav><a id="menu" role="menuitem" href="https://news.example/subscribe">Subscribe</a></nav>
      <a id="rss" role="button" href="https://news.example/feeds/"><span>Subscribe to our RSS feed</span></a>
      <a id="here" role="button" href="#">Delete</a>
      <a id="script" role="button" href="javascript:void 0">Pay now</a>`;
    const got = await verdicts(html, [
      { selector: '#menu' },
      { selector: '#rss span' },
      { selector: '#here' },
      { selector: '#script' },
    ]);
    expect(got.map((v) => v.class)).toEqual([undefined, undefined, 'delete', 'submit']);
  });

  it('counts what it classes on the corpus pages: only controls named like the listed commands, no comment-thread Reply openers', async () => {
    const names = (await readdir(CORPUS)).filter((n) => n.endsWith('.html')).sort();
    let controls = 0;
    const flagged: string[] = [];
    for (const name of names) {
      const page = await open(env.browser.context, `${env.server.origin}/corpus/${name}`);
      const count = await page.evaluate(() => {
        const all = document.querySelectorAll(
          'button, input[type=submit], [role=button], [role=menuitem], a[href]',
        );
        all.forEach((el, i) => el.setAttribute('data-approval-probe', String(i)));
        return all.length;
      });
      for (let i = 0; i < count; i++) {
        const r = await ok<{ sensitive?: SensitiveTarget }>(page, 'inspect', {
          target: { selector: `[data-approval-probe="${i}"]` },
          approval: 'click',
        });
        controls++;
        if (r.sensitive?.class !== undefined)
          flagged.push(`${name}: ${r.sensitive.class} "${r.sensitive.name}"`);
      }
      await page.close();
    }
    console.info(
      `approvals recognition on ${names.length} corpus pages: ${controls} controls, ${flagged.length} classed`,
      flagged,
    );
    expect(controls).toBeGreaterThan(100);
    // 1894 controls: 7 newsletter "Subscribe" (submit by name), "Post reply", "Post comment", "Send
    // question", "Transfer workspace", "Delete workspace", "Delete" — all named like the listed commands.
    expect(flagged.filter((f) => f.endsWith('"Reply"'))).toEqual([]);
    expect(flagged.length).toBeLessThanOrEqual(13);
  }, 120_000);
});
