/**
 * The chat's Markdown renderer against hostile model output: nothing becomes markup but the
 * allow-listed elements, text stays text (escaped when serialized here), links keep only http(s)
 * targets and always open with rel=noopener, and large or deeply nested input stays bounded.
 */
import { describe, expect, it } from 'vitest';
import {
  buildNodes,
  MARKDOWN_CAP,
  MarkdownStream,
  parseMarkdown,
  safeHref,
  type MdTag,
  type StreamFactory,
} from '../../src/panel/markdown';

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
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
]);

/** A node of a small DOM: enough for the renderer to build, append and remove, and counted. */
class FakeNode {
  readonly attributes = new Map<string, string>();
  readonly children: FakeNode[] = [];
  parent: FakeNode | null = null;

  constructor(
    readonly tag: string | null,
    public text = '',
  ) {}

  append(...nodes: FakeNode[]): void {
    for (const node of nodes) {
      node.remove();
      node.parent = this;
      this.children.push(node);
    }
  }

  replaceWith(node: FakeNode): void {
    const parent = this.parent;
    if (parent === null) return;
    node.remove();
    parent.children.splice(parent.children.indexOf(this), 1, node);
    node.parent = parent;
    this.parent = null;
  }

  remove(): void {
    if (this.parent === null) return;
    const at = this.parent.children.indexOf(this);
    if (at >= 0) this.parent.children.splice(at, 1);
    this.parent = null;
  }

  setAttribute(name: string, value: string): void {
    this.attributes.set(name, value);
  }
}

const escape = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function serialize(node: FakeNode): string {
  if (node.tag === null) return escape(node.text);
  const attributes = [...node.attributes].map(([k, v]) => ` ${k}="${escape(v)}"`).join('');
  return `<${node.tag}${attributes}>${node.children.map(serialize).join('')}</${node.tag}>`;
}

/** The tree exactly, text node boundaries included (two adjacent text nodes are not one). */
function shape(node: FakeNode): unknown {
  return node.tag === null
    ? node.text
    : [node.tag, Object.fromEntries(node.attributes), node.children.map(shape)];
}

/** A factory that records every element and text node it makes, the way a DOM would hold them. */
function recorder(): { factory: StreamFactory<FakeNode>; elements: FakeNode[]; made: () => number } {
  const elements: FakeNode[] = [];
  let texts = 0;
  const factory: StreamFactory<FakeNode> = {
    setText(node, value, append) {
      node.text = append ? node.text + value : value;
    },
    createElement(tag: MdTag) {
      const node = new FakeNode(tag);
      elements.push(node);
      return node;
    },
    createTextNode(text) {
      texts += 1;
      return new FakeNode(null, text);
    },
  };
  return { factory, elements, made: () => elements.length + texts };
}

function render(source: string): { html: string; elements: FakeNode[] } {
  const { factory, elements } = recorder();
  const html = buildNodes(parseMarkdown(source), factory).map(serialize).join('');
  return { html, elements };
}

/** An answer streamed into a bubble in `pieces`, rendered after each piece (no frame coalescing). */
function stream(pieces: readonly string[], cap?: number) {
  const { factory, elements, made } = recorder();
  const bubble = new FakeNode('div');
  const answer = new MarkdownStream(bubble, factory, cap);
  for (const piece of pieces) {
    answer.append(piece);
    answer.render();
  }
  return { bubble, elements, made, parsed: answer.parsed };
}

/** `source` cut into pieces of `size` characters. */
const piecesOf = (source: string, size: number): string[] =>
  Array.from({ length: Math.ceil(source.length / size) }, (_, i) => source.slice(i * size, (i + 1) * size));

/** The least of a few timings of `run` (the one least disturbed by the rest of the machine). */
function fastest(run: () => void, times = 5): number {
  let best = Infinity;
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    run();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/** The depth of the deepest element. */
function depthOf(node: FakeNode): number {
  let deepest = 0;
  const stack: [FakeNode, number][] = [[node, 1]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [at, depth] = next;
    deepest = Math.max(deepest, depth);
    for (const child of at.children) stack.push([child, depth + 1]);
  }
  return deepest;
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

  it('renders a table as a table: header cells, body rows, inline Markdown in cells, escaped pipes kept', () => {
    const { html, elements } = render(
      [
        'Prices:',
        '| Item | Price | Note |',
        '| :--- | ---: | :-: |',
        '| **Mug** | `$4` | a \\| b |',
        '| Tee | $9 |',
        'Cup | $1 | extra | dropped',
        '',
        'after',
      ].join('\n'),
    );
    expectOnlySafeElements(elements);
    expect(html).toBe(
      '<p>Prices:</p>' +
        '<table><thead><tr><th>Item</th><th>Price</th><th>Note</th></tr></thead><tbody>' +
        '<tr><td><strong>Mug</strong></td><td><code>$4</code></td><td>a | b</td></tr>' +
        '<tr><td>Tee</td><td>$9</td><td></td></tr>' +
        '<tr><td>Cup</td><td>$1</td><td>extra</td></tr>' +
        '</tbody></table><p>after</p>',
    );
    // No delimiter row (or one of another width): not a table, the pipes stay text.
    expect(render('a | b\nc | d').html).toBe('<p>a | b<br></br>c | d</p>');
    expect(render('| a | b |\n| --- |').html).toBe('<p>| a | b |<br></br>| --- |</p>');
  });

  it('keeps HTML and script in a table cell as visible text, and a cell link only when http(s)', () => {
    const { html, elements } = render(
      [
        '| <script>alert(1)</script> | <img src=x onerror="alert(2)"> |',
        '| --- | --- |',
        '| [a](javascript:alert(1)) | [b](https://example.com/) |',
        '| &lt;b onclick=x&gt; | <td onclick=x>cell</td> |',
      ].join('\n'),
    );
    expectOnlySafeElements(elements);
    expect(elements.filter((e) => e.tag === 'a').map((e) => e.attributes.get('href'))).toEqual([
      'https://example.com/',
    ]);
    expect(html).toBe(
      '<table><thead><tr><th>&lt;script&gt;alert(1)&lt;/script&gt;</th>' +
        '<th>&lt;img src=x onerror=&quot;alert(2)&quot;&gt;</th></tr></thead><tbody>' +
        '<tr><td>a</td><td><a href="https://example.com/" target="_blank" rel="noopener noreferrer">b</a></td></tr>' +
        '<tr><td>&lt;b onclick=x&gt;</td><td>&lt;td onclick=x&gt;cell&lt;/td&gt;</td></tr>' +
        '</tbody></table>',
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
    // A link inside emphasis is checked like any other: a javascript:, vbscript: or data: target loses it.
    const nested = render('**[y](javascript:alert(1))** *[z](vbscript:x)* ~~[w](data:text/html,x)~~');
    expectOnlySafeElements(nested.elements);
    expect(nested.html).toBe('<p><strong>y</strong> <em>z</em> <del>w</del></p>');
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
    const stray = render(`${'*a '.repeat(20_000)}\n${'[`'.repeat(10_000)}`);
    expectOnlySafeElements(stray.elements);
    expect(stray.html).toContain('*a *a');
  });

  it('parses hostile runs of markers in linear time: no slower per character than plain text of the same length, by a wide margin', () => {
    const length = 96_000;
    const fill = (unit: string, head = '') =>
      `${head}${unit.repeat(Math.ceil(length / unit.length))}`.slice(0, length);
    const plain = Math.max(
      fastest(() => parseMarkdown(fill('xa '))),
      0.5,
    );
    const hostile = [
      fill('*a '),
      fill('**a '),
      fill('***a '),
      fill('_a '),
      fill('~~a '),
      fill('`a ``b '),
      fill('['),
      fill('[a](x "'),
      fill('# a   #   \n'),
      // A heading line of spaces: the pattern it was read with backtracked cubically (2,000 spaces take it
      // seconds, hundreds of times the plain parse; 1,000 took it only about as long as the limit).
      fill('xa ', `# a${' '.repeat(2_000)}b\n\n`),
    ];
    // Linear work is a small multiple of the plain parse (at most about 30 here); a scan per marker,
    // bounded or not, is hundreds of times more at this length.
    const LIMIT = 100;
    for (const source of hostile) {
      let took = Infinity;
      // Measured again (up to five times, the fastest kept) only when over: the machine may be busy.
      for (let i = 0; i < 5 && took / plain >= LIMIT; i++)
        took = Math.min(
          took,
          fastest(() => parseMarkdown(source), 1),
        );
      expect(took / plain, source.slice(0, 12)).toBeLessThan(LIMIT);
    }
  }, 60_000);

  it('renders 10,000 levels of nested lists, quotes and emphasis without throwing, nested no deeper than a fixed bound', () => {
    const lists = Array.from({ length: 10_000 }, (_, i) => `${' '.repeat(i)}- level ${i}`).join('\n');
    const quotes = `${'> '.repeat(10_000)}deep`;
    const emphasis = `${'*a **b ~~c '.repeat(3_400)}x${' c~~ b** a*'.repeat(3_400)}`;
    const links = `${'[a '.repeat(10_000)}x${'](https://example.com/)'.repeat(10_000)}`;
    for (const source of [lists, quotes, emphasis, links]) {
      const { factory, elements } = recorder();
      const root = new FakeNode('div');
      root.append(...buildNodes(parseMarkdown(source), factory));
      expectOnlySafeElements(elements);
      expect(depthOf(root)).toBeLessThanOrEqual(40);
      // Through the streamed renderer too (the part under the Markdown cap).
      const streamed = stream(piecesOf(source.slice(0, MARKDOWN_CAP + 5_000), 4_000));
      expect(depthOf(streamed.bubble)).toBeLessThanOrEqual(41);
      if (source === lists) expect(serialize(root)).toContain('level 9999');
    }
  }, 60_000);

  it('renders a streamed answer, cut into pieces of any size, into the same DOM as the whole text at once', () => {
    const answers = [
      [
        '## Done',
        'I filled **Name** with `Ada`, chose *Large*',
        'and went on.',
        '',
        '- step one',
        '- step two',
        '  - a detail',
        '1. first',
        '',
        '```js',
        'const a = 1 < 2;',
        '',
        '```',
        '> quoted',
        '> more',
        '',
        '---',
        'See [the docs](https://example.com/a?b=1 "t") or https://example.org/x.',
        '# end #',
      ].join('\n'),
      'one\r\ntwo\r\n\r\nthree\rfour\n\n\n',
      '```\nunclosed <b>\n\nstill code',
      '**bold across\n\nparagraphs** and *em*',
      '<script>alert(1)</script>\n\n[x](javascript:alert(1))',
      `${'para *a* '.repeat(30)}\n\n`.repeat(8),
      'Here:\n| a | **b** |\n| --- | :-: |\n| 1 | 2 |\n| 3 |\nafter\n\n| x |\n| - |\n',
      'text\n| a | b |\n| --- | -x\n| c | d |',
    ];
    for (const answer of answers) {
      const whole = stream([answer]).bubble;
      for (const size of [1, 2, 3, 4, 7, 64]) {
        const streamed = stream(piecesOf(answer, size)).bubble;
        expect(shape(streamed)).toEqual(shape(whole));
      }
      // Past a (small) cap, the same again: Markdown first, the rest plain text.
      const cap = 40;
      const capped = stream([answer], cap).bubble;
      for (const size of [1, 3, 5])
        expect(shape(stream(piecesOf(answer, size), cap).bubble)).toEqual(shape(capped));
    }
    expect(serialize(stream(piecesOf(answers[0] ?? '', 3)).bubble)).toContain(
      '<ul><li>step one</li><li>step two<ul><li>a detail</li></ul></li></ul>',
    );
  });

  it('streams in work linear in the answer: after each piece only the unfinished last block is parsed and built again', () => {
    // A long answer of short paragraphs, some hostile, in 4-character pieces, rendered after every
    // piece (the panel renders at most once per frame; this is the worst case of one piece a frame).
    const paragraph = (i: number) => `${['**a ', '*a ', 'plain '][i % 3]?.repeat(30) ?? ''}\n\n`;
    const answerOf = (paragraphs: number) =>
      Array.from({ length: paragraphs }, (_, i) => paragraph(i)).join('');
    const small = stream(piecesOf(answerOf(40), 4));
    const large = stream(piecesOf(answerOf(160), 4));
    const length = answerOf(160).length;
    // Four times the answer, four times the work (re-rendering the whole answer each time would be
    // sixteen times).
    expect(large.parsed / small.parsed).toBeLessThan(6);
    expect(large.made() / small.made()).toBeLessThan(6);
    // Each piece re-parses at most the paragraph it falls in.
    expect(large.parsed).toBeLessThan((length / 4) * 200);
    expect(serialize(large.bubble)).toBe(serialize(stream([answerOf(160)]).bubble));
  });

  it('renders Markdown up to the cap (32,768 characters) and the rest as plain text, which is not parsed again as it grows', () => {
    expect(MARKDOWN_CAP).toBe(32_768);
    const head = '**bold**\n\n';
    const tail = '**not bold** <b>x</b>\n[l](https://example.com/)';
    const answer = `${head}${'a'.repeat(MARKDOWN_CAP - head.length - 1)}\n${tail}`;
    const whole = stream([answer]);
    const html = serialize(whole.bubble);
    expect(html.startsWith('<div><p><strong>bold</strong></p><p>aaa')).toBe(true);
    expect(
      html.endsWith('<p>**not bold** &lt;b&gt;x&lt;/b&gt;<br></br>[l](https://example.com/)</p></div>'),
    ).toBe(true);
    expectOnlySafeElements(whole.elements);

    // A stream far past the cap: the parse stops at the cap; what follows only appends text.
    const long = '*a '.repeat(MARKDOWN_CAP);
    const { factory } = recorder();
    const bubble = new FakeNode('div');
    const growing = new MarkdownStream(bubble, factory);
    let parsedAtCap = -1;
    for (const piece of piecesOf(long, 1_000)) {
      growing.append(piece);
      growing.render();
      if (parsedAtCap < 0 && growing.text.length >= MARKDOWN_CAP) parsedAtCap = growing.parsed;
    }
    expect(parsedAtCap).toBeGreaterThan(0);
    expect(growing.parsed).toBe(parsedAtCap);
    expect(shape(bubble)).toEqual(shape(stream([long]).bubble));
  });
});
