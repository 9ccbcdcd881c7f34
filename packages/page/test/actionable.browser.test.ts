/**
 * What gets a handle on pages built the way real widget libraries build them: anchors without href
 * used as buttons, clickable children of a clickable parent, icon-only controls, keyboard-operable
 * boxes without a role, and accessible names that skip hidden text and keep words apart.
 */
import { describe, expect, it } from 'vitest';
import type { ElementsDriverResult, SnapshotDriverResult } from '@bproxy/protocol';
import type { Page } from 'playwright-core';
import { ok, usePageFixtures, withHtml as harnessWithHtml } from './harness';

const env = usePageFixtures();

const withHtml = (html: string, body: (page: Page) => Promise<void>): Promise<void> =>
  harnessWithHtml(env.browser.context, html, body);

const elements = (page: Page, params: Record<string, unknown> = {}) =>
  ok<ElementsDriverResult>(page, 'elements', params);
const snapshot = async (page: Page): Promise<string> =>
  (await ok<SnapshotDriverResult>(page, 'snapshot')).snapshot.replace(/\uE000\d+\uE001/g, '#');
const refOf = async (page: Page, name: string): Promise<string> => {
  const found = (await elements(page)).elements.find((e) => e.name === name);
  if (found === undefined) throw new Error(`no element named ${JSON.stringify(name)}`);
  return found.ref;
};

describe('anchors without href used as buttons', () => {
  const repro =
    '<a title="Prev">Prev</a> <b>May 2016</b> <a title="Next">Next</a><script>document.querySelectorAll("a").forEach(a=>a.addEventListener("click",()=>document.title=a.title))</script>';

  it('get a handle each and a click reaches their handler', async () => {
    await withHtml(repro, async (page) => {
      expect((await elements(page)).elements.map((e) => [e.role, e.name])).toEqual([
        ['generic', 'Prev'],
        ['generic', 'Next'],
      ]);
      expect(await snapshot(page)).toBe('text: [Prev]# May 2016 [Next]#');
      await ok(page, 'click', { target: { ref: await refOf(page, 'Next') } });
      expect(await page.title()).toBe('Next');
    });
  });

  it('leave out an empty named anchor used as a fragment target', async () => {
    await withHtml('<h2><a name="top"></a>Top</h2><a id="old" name="old">Old anchor</a>', async (page) => {
      expect((await elements(page)).elements).toEqual([]);
    });
  });
});

describe('clickable children of a clickable parent', () => {
  const toolbar = `<div id="bar" style="cursor:pointer;display:flex;gap:40px;width:300px">
      <span id="reply">Reply</span><span id="forward">Forward</span></div>
    <script>
      for (const id of ['reply', 'forward'])
        document.getElementById(id).addEventListener('click', (e) => { e.stopPropagation(); document.title = id; });
    </script>`;

  it('are listed one by one, and each click lands on its own handler', async () => {
    await withHtml(toolbar, async (page) => {
      const names = (await elements(page)).elements.map((e) => e.name);
      expect(names).toEqual(expect.arrayContaining(['Reply', 'Forward']));
      await ok(page, 'click', { target: { ref: await refOf(page, 'Forward') } });
      expect(await page.title()).toBe('forward');
      await ok(page, 'click', { target: { ref: await refOf(page, 'Reply') } });
      expect(await page.title()).toBe('reply');
    });
  });

  it('are listed below the fold too, where they cannot be hit-tested yet', async () => {
    await withHtml(`<div style="height:2000px"></div>${toolbar}`, async (page) => {
      const names = (await elements(page)).elements.map((e) => e.name);
      expect(names).toEqual(expect.arrayContaining(['Reply', 'Forward']));
    });
  });

  it('keep the nested items of a tree apart from their folder', async () => {
    const tree =
      '<style>li{cursor:pointer}</style><ul><li><span>Marcella</span><ul><li>Tula</li><li>Jo</li></ul></li></ul>';
    await withHtml(tree, async (page) => {
      const names = (await elements(page)).elements.map((e) => e.name);
      expect(names).toEqual(expect.arrayContaining(['Tula', 'Jo']));
      expect(names.some((n) => n.startsWith('Marcella'))).toBe(true);
    });
  });

  it('are not split out of a link or a button', async () => {
    await withHtml(
      '<a href="#x"><span>Open</span> <span>the file</span></a><button><span>Save</span> <span>all</span></button>',
      async (page) => {
        expect((await elements(page)).elements.map((e) => e.name)).toEqual(['Open the file', 'Save all']);
      },
    );
  });
});

describe('icon-only controls', () => {
  it('are listed with a name made from their id, title, image or class', async () => {
    const icons = `<p>Compose</p>
      <span id="send-mail" style="cursor:pointer;display:inline-block;width:16px;height:16px;background:red"></span>
      <span title="Delete" style="cursor:pointer;display:inline-block;width:16px;height:16px;background:blue"></span>
      <i class="icon fa-archive" style="cursor:pointer;display:inline-block;width:16px;height:16px;background:green"></i>
      <span style="cursor:pointer;display:inline-block"><img src="http://127.0.0.1:1/icons/trash.png?v=2" width="16" height="16"></span>
      <script>document.getElementById('send-mail').addEventListener('click', () => (document.title = 'sent'));</script>`;
    await withHtml(icons, async (page) => {
      const names = (await elements(page)).elements.map((e) => e.name);
      expect(names).toEqual(['#send-mail', 'Delete', '.fa-archive', 'trash.png']);
      await ok(page, 'click', { target: { ref: await refOf(page, '#send-mail') } });
      expect(await page.title()).toBe('sent');
    });
  });
});

describe('keyboard-operable boxes without a role', () => {
  it('are listed as focusable, and keys pressed on them reach their handler', async () => {
    const slider =
      '<p>Volume</p><span tabindex="0" style="display:inline-block;width:20px;height:20px;background:gray"></span> <b id=v>5</b><script>document.querySelector("span").addEventListener("keydown",e=>{if(e.key=="ArrowRight")v.textContent=+v.textContent+1})</script>';
    await withHtml(slider, async (page) => {
      const found = (await elements(page)).elements;
      expect(found.map((e) => [e.role, e.tag])).toEqual([['generic', 'span']]);
      expect(await snapshot(page)).toBe('text: Volume\nfocusable #\ntext: 5');
      await ok(page, 'press', { target: { ref: found[0]?.ref }, key: 'ArrowRight' });
      expect(await page.textContent('#v')).toBe('6');
    });
  });

  it('mark a disabled one as disabled and leave out what is taken out of the tab order', async () => {
    await withHtml(
      '<div tabindex="-1">Main</div><span tabindex="0" aria-disabled="true">Off</span><button disabled tabindex="0">No</button>',
      async (page) => {
        const found = (await elements(page)).elements;
        expect(found.map((e) => [e.name, e.disabled === true])).toEqual([
          ['Off', true],
          ['No', true],
        ]);
      },
    );
  });
});

describe('actionable boxes that hold content', () => {
  it('show their content in full under their own line, named by their label', async () => {
    const html =
      '<div tabindex="0" aria-label="Code sample"><h2>Install</h2><p>Run npm install</p><button>Copy</button></div>' +
      '<div class="card" style="cursor:pointer"><h3>Ada</h3><p>Mathematician</p></div>';
    await withHtml(html, async (page) => {
      expect(await snapshot(page)).toBe(
        [
          'focusable "Code sample" #',
          '  h2 "Install"',
          '  text: Run npm install',
          '  button "Copy" #',
          'clickable ".card" #',
          '  h3 "Ada"',
          '  text: Mathematician',
        ].join('\n'),
      );
    });
  });
});

describe('accessible names', () => {
  it('skip hidden text', async () => {
    await withHtml(
      '<style>li{cursor:pointer}</style><ul><li><span>Marcella</span><ul style="display:none"><li>Tula</li></ul></li></ul>',
      async (page) => {
        expect((await elements(page)).elements.map((e) => e.name)).toEqual(['Marcella']);
      },
    );
  });

  it('break words at block and inline-block boundaries', async () => {
    await withHtml(
      '<button><span style="display:inline-block">Reply</span><span style="display:inline-block">Forward</span></button>' +
        '<button><div>Save</div><div>draft</div></button><button>Un<b>bold</b>ed</button>',
      async (page) => {
        expect((await elements(page)).elements.map((e) => e.name)).toEqual([
          'Reply Forward',
          'Save draft',
          'Unbolded',
        ]);
      },
    );
  });
});
