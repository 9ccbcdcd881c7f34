import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { DetectHumanResult } from '@bproxy/page';
import { CORPUS, inject, ok, open, usePageFixtures } from '../harness';

const env = usePageFixtures();

const url = (name: string): string => `${env.server.origin}/${name}`;

async function detectOn(html: string): Promise<DetectHumanResult> {
  const page = await env.browser.context.newPage();
  try {
    await page.setContent(html);
    await inject(page);
    return await ok<DetectHumanResult>(page, 'detectHuman');
  } finally {
    await page.close();
  }
}

describe('detectHuman', () => {
  it('reports the reCAPTCHA widget on captcha.html', async () => {
    const page = await open(env.browser.context, url('captcha.html'));
    const r = await ok<DetectHumanResult>(page, 'detectHuman');
    expect(r.required).toBe(true);
    expect(r.reason).toMatch(/reCAPTCHA/);
    await page.close();
  });

  it('reports hCaptcha, Turnstile, challenge interstitials and login walls', async () => {
    expect((await detectOn('<div class="h-captcha" style="width:300px;height:80px"></div>')).reason).toMatch(
      /hCaptcha/,
    );
    expect(
      (await detectOn('<div class="cf-turnstile" style="width:300px;height:65px"></div>')).reason,
    ).toMatch(/Turnstile/);
    expect(
      (
        await detectOn(
          '<title>Just a moment...</title><p>Checking your browser before accessing the site.</p>',
        )
      ).required,
    ).toBe(true);
    expect(
      (await detectOn('<h1>example.com</h1><p>Verify you are human by completing the action below.</p>'))
        .required,
    ).toBe(true);
    expect(
      (
        await detectOn(
          '<h1>Sign in</h1><form><input name="u"><input type="password"><button>Log in</button></form>',
        )
      ).reason,
    ).toMatch(/sign-in form/);
    const overlay =
      '<article>' +
      '<p>Long article text. </p>'.repeat(200) +
      '</article><div style="position:fixed;inset:0;background:#fff"><h2>Sign in to continue reading</h2><a href="/login">Sign in</a></div>';
    expect((await detectOn(overlay)).reason).toMatch(/overlay/);
  });

  it('does not fire on invisible reCAPTCHA badges or pages that merely link to a login', async () => {
    expect(
      (await detectOn('<div class="g-recaptcha" data-size="invisible"></div><p>Hello</p>')).required,
    ).toBe(false);
    expect(
      (
        await detectOn(
          '<div class="grecaptcha-badge"><iframe src="/recaptcha/api2/anchor?size=invisible" width="256" height="60"></iframe></div>',
        )
      ).required,
    ).toBe(false);
    expect(
      (await detectOn('<header><a href="/login">Sign in</a></header><main><h1>News</h1><p>Story.</p></main>'))
        .required,
    ).toBe(false);
  });

  it('tells a form that sets a password from a sign-in form that blocks the page', async () => {
    const repro =
      '<p>Enter the password "x7" into both fields.</p><input type=password><input type=password><button>Submit</button>';
    expect(await detectOn(repro)).toEqual({ required: false });
    const signUp =
      '<h1>Join</h1><form><input name="u"><input type="password" autocomplete="new-password"><button>Sign up</button></form>';
    expect(await detectOn(signUp)).toEqual({ required: false });
    const signIn =
      '<h1>Sign in</h1><form><input name="u"><input type="password"><button>Log in</button></form>';
    expect(await detectOn(signIn)).toMatchObject({ required: true, kind: 'login' });
  });

  it('waives the kinds a person resumed for on this document and URL only', async () => {
    const signIn =
      '<h1>Sign in</h1><form><input name="u"><input type="password"><button>Log in</button></form>';
    const page = await env.browser.context.newPage();
    try {
      await page.setContent(signIn);
      await inject(page);
      const first = await ok<DetectHumanResult>(page, 'detectHuman');
      expect(first).toMatchObject({ required: true, kind: 'login', url: 'about:blank' });
      expect(first.document).toMatch(/^[0-9a-f]{16}$/);
      const waived = { document: first.document, url: first.url, kinds: ['login'] };
      expect(await ok(page, 'detectHuman', { waived })).toEqual({ required: false });
      // Another kind of check on the same document is not waived: a CAPTCHA that appears later pauses.
      await page.evaluate(() => {
        const box = document.createElement('div');
        box.className = 'g-recaptcha';
        box.style.cssText = 'width:300px;height:80px';
        document.body.append(box);
      });
      expect(await ok(page, 'detectHuman', { waived })).toMatchObject({ required: true, kind: 'captcha' });
      // A waiver for another document, or for this one at another URL, waives nothing.
      await page.evaluate(() => document.querySelector('.g-recaptcha')?.remove());
      const other = { ...waived, document: '0123456789abcdef' };
      expect(await ok(page, 'detectHuman', { waived: other })).toMatchObject({ kind: 'login' });
      await page.evaluate(() => history.pushState(null, '', '#next'));
      expect(await ok(page, 'detectHuman', { waived })).toMatchObject({ kind: 'login' });
    } finally {
      await page.close();
    }
  });

  it('does not fire on the project fixture pages', async () => {
    for (const name of [
      'forms.html',
      'list.html',
      'spa.html',
      'shadow.html',
      'iframe.html',
      'dialog.html',
      'counter.html',
      'covered.html',
      'long.html',
    ]) {
      const page = await open(env.browser.context, url(name));
      expect({ name, ...(await ok<DetectHumanResult>(page, 'detectHuman')) }).toEqual({
        name,
        required: false,
      });
      await page.close();
    }
  });

  it('does not fire on the long pages of the project corpus', async () => {
    // Every page: they hold what must not count — a sign-in link in the header, a form that changes
    // a password (new + repeat), a question form, a closed dialog, a modal kept hidden.
    const names = (await readdir(CORPUS)).filter((n) => n.endsWith('.html')).sort();
    expect(names.length).toBeGreaterThanOrEqual(8);
    const fired: string[] = [];
    for (const name of names) {
      const page = await open(env.browser.context, `${env.server.origin}/corpus/${name}`);
      const r = await ok<DetectHumanResult>(page, 'detectHuman');
      if (r.required) fired.push(`${name}: ${r.reason ?? ''}`);
      await page.close();
    }
    expect(fired).toEqual([]);
  }, 120_000);
});
