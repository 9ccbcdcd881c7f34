/**
 * The chat's Markdown renderer against hostile model output: nothing becomes markup but the
 * allow-listed elements, text stays text (escaped when serialized here), links keep only http(s)
 * targets and always open with rel=noopener, and large or deeply nested input stays bounded.
 */
import { describe, expect, it } from 'vitest';
import { buildNodes, parseMarkdown, safeHref, type MdTag, type NodeFactory } from '../src/panel/markdown';

const ALLOWED = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'ul',
  'ol',
  'li',
  'blockquote',
  'pre',
  'code',
  'hr',
  'br',
  'em',
  'strong',
  'del',
  'a',
]);

interface FakeNode {
  readonly tag: string | null;
  readonly text: string;
  readonly attributes: Map<string, string>;
  readonly children: FakeNode[];
}

const escape = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function serialize(node: FakeNode): string {
  if (node.tag === null) return escape(node.text);
  const attributes = [...node.attributes].map(([k, v]) => ` ${k}="${escape(v)}"`).join('');
  return `<${node.tag}${attributes}>${node.children.map(serialize).join('')}</${node.tag}>`;
}

/** Records every element and attribute the renderer creates, the way a DOM would hold them. */
function render(source: string): { html: string; elements: FakeNode[] } {
  const elements: FakeNode[] = [];
  const factory: NodeFactory<FakeNode> = {
    createElement(tag: MdTag) {
      const node = {
        tag,
        text: '',
        attributes: new Map<string, string>(),
        children: [] as FakeNode[],
        append: (...nodes: FakeNode[]) => void node.children.push(...nodes),
        setAttribute: (name: string, value: string) => void node.attributes.set(name, value),
      };
      elements.push(node);
      return node;
    },
    createTextNode: (text) => ({ tag: null, text, attributes: new Map(), children: [] }),
  };
  const html = buildNodes(parseMarkdown(source), factory).map(serialize).join('');
  return { html, elements };
}

function expectOnlySafeElements(elements: FakeNode[]): void {
  for (const node of elements) {
    expect(ALLOWED.has(node.tag ?? '')).toBe(true);
    const names = [...node.attributes.keys()];
    if (node.tag === 'a') expect(names.sort()).toEqual(['href', 'rel', 'target']);
    else expect(names).toEqual([]);
  }
}

describe('the chat Markdown renderer', () => {
  it('renders the Markdown a chat answer uses', () => {
    const { html } = render(
      [
        '## Done',
        'I filled **Name** with `Ada` and chose *Large*.',
        '',
        '- step one',
        '- step two',
        '  - a detail',
        '1. first',
        '',
        '```js',
        'const a = 1 < 2;',
        '```',
        '> quoted',
        'See [the docs](https://example.com/a?b=1) or https://example.org/x.',
      ].join('\n'),
    );
    expect(html).toBe(
      '<h2>Done</h2>' +
        '<p>I filled <strong>Name</strong> with <code>Ada</code> and chose <em>Large</em>.</p>' +
        '<ul><li>step one</li><li>step two<ul><li>a detail</li></ul></li></ul>' +
        '<ol><li>first</li></ol>' +
        '<pre><code>const a = 1 &lt; 2;</code></pre>' +
        '<blockquote><p>quoted</p></blockquote>' +
        '<p>See <a href="https://example.com/a?b=1" target="_blank" rel="noopener noreferrer">the docs</a> or ' +
        '<a href="https://example.org/x" target="_blank" rel="noopener noreferrer">https://example.org/x</a>.</p>',
    );
  });

  it('keeps <script> and <img onerror> as visible text, never as elements', () => {
    const { html, elements } = render(
      '<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">\n\n**<b onclick=x>bold</b>**',
    );
    expectOnlySafeElements(elements);
    expect(elements.map((e) => e.tag)).toEqual(['p', 'p', 'p', 'strong']);
    expect(html).toBe(
      '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>' +
        '<p>&lt;img src=x onerror=&quot;alert(2)&quot;&gt;</p>' +
        '<p><strong>&lt;b onclick=x&gt;bold&lt;/b&gt;</strong></p>',
    );
  });

  it('drops links to javascript:, data:, vbscript: and relative targets, keeping their words as text', () => {
    const hostile = [
      '[a](javascript:alert(1))',
      '[b](JaVaScRiPt:alert(1))',
      '[c](java&#115;cript:alert(1))',
      '[d](data:text/html,<script>alert(1)</script>)',
      '[e](vbscript:msgbox)',
      '[f](/relative)',
      '[g](  javascript:alert(1)  )',
      'javascript:alert(1)',
    ];
    for (const line of hostile) {
      const { elements } = render(line);
      expectOnlySafeElements(elements);
      expect(elements.filter((e) => e.tag === 'a')).toEqual([]);
    }
    expect(render('[c](java&#115;cript:alert(1))').html).toBe('<p>c</p>');
    expect(safeHref('https://example.com')).toBe('https://example.com/');
    expect(safeHref('http://127.0.0.1:8080/x')).toBe('http://127.0.0.1:8080/x');
    expect(safeHref('file:///etc/passwd')).toBeNull();
  });

  it('decodes entities into text, so an encoded tag is shown, not built', () => {
    const { html, elements } = render('&lt;img src=x onerror=alert(1)&gt; &amp; &#x3C;b&#62; &bogus; &#0;');
    expectOnlySafeElements(elements);
    expect(html).toBe('<p>&lt;img src=x onerror=alert(1)&gt; &amp; &lt;b&gt; &amp;bogus; \ufffd</p>');
  });

  it('renders nested emphasis and links inside emphasis, and a link label with markup stays text', () => {
    const { html, elements } = render(
      '***both*** **bold [x](https://a.example/) *em* ~~gone~~** [<img>](https://b.example/)',
    );
    expectOnlySafeElements(elements);
    expect(html).toBe(
      '<p><strong><em>both</em></strong> <strong>bold <a href="https://a.example/" target="_blank" rel="noopener noreferrer">x</a> <em>em</em> <del>gone</del></strong> ' +
        '<a href="https://b.example/" target="_blank" rel="noopener noreferrer">&lt;img&gt;</a></p>',
    );
  });

  it('shows an unclosed code fence as code while it streams, with its HTML as text', () => {
    expect(render('```\n<div onclick=x>').html).toBe('<pre><code>&lt;div onclick=x&gt;</code></pre>');
  });

  it('leaves snake_case words and escaped markers alone', () => {
    expect(render('call read_file_now and \\*not em\\*').html).toBe('<p>call read_file_now and *not em*</p>');
  });

  it('stays bounded on deep nesting and on long runs of stray markers', () => {
    const deep = render(`${'> '.repeat(200)}deep`);
    expect(deep.elements.filter((e) => e.tag === 'blockquote').length).toBeLessThanOrEqual(14);
    expect(deep.html).toContain('deep');
    const started = performance.now();
    const stray = render(`${'*a '.repeat(20_000)}\n${'[`'.repeat(10_000)}`);
    expect(performance.now() - started).toBeLessThan(2_000);
    expectOnlySafeElements(stray.elements);
  });
});
