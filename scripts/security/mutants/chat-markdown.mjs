// Removals of the threat model's section 12 that concern the Chat's rendering of model output: the
// safe Markdown renderer, the bounds that keep a hostile streamed answer from freezing the panel, and
// the chats kept apart per tab (the worker's relay is in panel-and-terminal.mjs).

const MD = 'packages/extension/src/panel/markdown.ts';
const MD_TEST = 'packages/extension/test/panel/markdown.test.ts › the chat Markdown renderer';
const BATCH = 'packages/extension/src/panel/render-batch.ts';
const BATCH_TEST = 'packages/extension/test/panel/render-batch.test.ts › rendering a streamed answer';
const E2E = 'tests/e2e/panel-chat.test.ts › chat in the side panel';

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  {
    id: 'chat-md-tags-from-text',
    protects: 'model text is never built as an element: a tag in it, typed or entity-encoded, stays text',
    edits: [
      {
        file: MD,
        find: "    if (node.kind === 'text') return factory.createTextNode(node.text);\n",
        replace:
          "    const tag = node.kind === 'text' ? /^<(\\w+)/.exec(node.text)?.[1] : undefined;\n" +
          '    if (tag !== undefined) return factory.createElement(tag);\n' +
          "    if (node.kind === 'text') return factory.createTextNode(node.text);\n",
      },
    ],
    kills: [
      `${MD_TEST} › keeps <script> and <img onerror> as visible text, never as elements`,
      `${MD_TEST} › decodes entities into text, so an encoded tag is shown, not built`,
      `${MD_TEST} › renders nested emphasis and links inside emphasis, and a link label with markup stays text`,
      `${MD_TEST} › keeps HTML and script in a table cell as visible text, and a cell link only when http(s)`,
    ],
  },
  {
    id: 'chat-md-any-link-scheme',
    protects: 'a link keeps its href only when it is absolute http(s)',
    edits: [
      {
        file: MD,
        find: "    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;",
        replace: '    return url.href;',
      },
    ],
    kills: [
      `${MD_TEST} › drops links to javascript:, data:, vbscript: and relative targets, keeping their words as text`,
      `${MD_TEST} › keeps HTML and script in a table cell as visible text, and a cell link only when http(s)`,
    ],
  },
  {
    id: 'chat-md-link-noopener',
    protects:
      'a model\'s link opens with rel="noopener noreferrer": the page it opens gets no handle on the panel',
    edits: [
      {
        file: MD,
        find: "      element.setAttribute('href', node.href);\n      element.setAttribute('target', '_blank');\n      element.setAttribute('rel', 'noopener noreferrer');\n",
        replace:
          "      element.setAttribute('href', node.href);\n      element.setAttribute('target', '_blank');\n",
      },
      {
        file: MD,
        find: "      element.setAttribute('href', md.href);\n      element.setAttribute('target', '_blank');\n      element.setAttribute('rel', 'noopener noreferrer');\n",
        replace:
          "      element.setAttribute('href', md.href);\n      element.setAttribute('target', '_blank');\n",
      },
    ],
    kills: [
      `${MD_TEST} › renders nested emphasis and links inside emphasis, and a link label with markup stays text`,
    ],
  },
  {
    id: 'chat-md-nested-link-unchecked',
    protects: 'a link inside emphasis keeps its href only when it is http(s), like any other',
    edits: [
      {
        file: MD,
        find: '    const href = safeHref(target.href);',
        replace: '    const href = depth > 1 ? target.href : safeHref(target.href);',
      },
    ],
    kills: [
      `${MD_TEST} › renders nested emphasis and links inside emphasis, and a link label with markup stays text`,
    ],
  },
  {
    id: 'chat-md-entities-kept',
    protects: 'entities decode into text',
    edits: [
      {
        file: MD,
        find: '  return value.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (whole, ref: string) => {',
        replace:
          '  return value;\n  return value.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (whole, ref: string) => {',
      },
    ],
    kills: [`${MD_TEST} › decodes entities into text, so an encoded tag is shown, not built`],
  },
  {
    id: 'chat-md-stream-nothing-settles',
    protects: 'a streamed answer keeps its finished blocks and parses again only the last one',
    edits: [
      {
        file: MD,
        find: '      if (block.next >= complete) break;',
        replace: '      break;',
      },
    ],
    kills: [
      `${MD_TEST} › streams in work linear in the answer: after each piece only the unfinished last block is parsed and built again`,
    ],
  },
  {
    id: 'chat-md-stream-settles-early',
    protects: 'a block settles only once a complete line after it decided where it ends',
    edits: [
      {
        file: MD,
        find: '      if (block.next >= complete) break;',
        replace: '      if (block.next > complete) break;',
      },
    ],
    kills: [
      `${MD_TEST} › renders a streamed answer, cut into pieces of any size, into the same DOM as the whole text at once`,
    ],
  },
  {
    id: 'chat-md-list-depth',
    protects: 'lists nest at most MAX_DEPTH levels',
    edits: [
      {
        file: MD,
        find: '    if (indent > base && depth < MAX_DEPTH) {',
        replace: '    if (indent > base) {',
      },
    ],
    kills: [
      `${MD_TEST} › renders 10,000 levels of nested lists, quotes and emphasis without throwing, nested no deeper than a fixed bound`,
    ],
  },
  {
    id: 'chat-md-closer-scan',
    protects: "an emphasis marker's closer is looked up in a table, not scanned for",
    edits: [
      {
        file: MD,
        find: '  closer(kind: Delimited, from: number): number {\n',
        replace:
          '  closer(kind: Delimited, from: number): number {\n' +
          '    for (let i = from; i < Math.min(this.source.length, from + SPAN_MAX); i++)\n' +
          '      if (kind.closes(this.source, i)) return i;\n' +
          '    return -1;\n',
      },
    ],
    kills: [
      `${MD_TEST} › parses hostile runs of markers in linear time: no slower per character than plain text of the same length, by a wide margin`,
    ],
  },
  {
    id: 'chat-md-heading-pattern',
    protects: 'a heading line is read without backtracking',
    edits: [
      {
        file: MD,
        find: 'function heading(line: string): { level: number; text: string } | null {\n',
        replace:
          'function heading(line: string): { level: number; text: string } | null {\n' +
          '  const old = /^ {0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$/.exec(line);\n' +
          "  return old === null ? null : { level: Math.min((old[1] ?? '#').length, 4), text: old[2] ?? '' };\n",
      },
    ],
    kills: [
      `${MD_TEST} › parses hostile runs of markers in linear time: no slower per character than plain text of the same length, by a wide margin`,
    ],
  },
  {
    id: 'chat-md-cap',
    protects: 'past 32,768 characters the rest of an answer is plain text, never parsed',
    edits: [
      {
        file: MD,
        find: '    if (this.cut === null && this.source.length >= this.cap) this.cut = cutAt(this.source, this.cap);',
        replace: '',
      },
    ],
    kills: [
      `${MD_TEST} › renders Markdown up to the cap (32,768 characters) and the rest as plain text, which is not parsed again as it grows`,
    ],
  },
  {
    id: 'chat-render-once-per-frame',
    protects: 'a streamed answer renders at most once per animation frame',
    edits: [
      {
        file: BATCH,
        find: '    if (this.cancel !== null) return;',
        replace: '    return void this.render();',
      },
    ],
    kills: [`${BATCH_TEST} › renders many deltas between two frames once, and at most once per frame`],
  },
  {
    id: 'chat-render-rest',
    protects: 'after a render that took t ms, the next waits t ms more',
    edits: [
      {
        file: BATCH,
        find: '    this.restUntil = ended + (ended - started);',
        replace: '    this.restUntil = ended;',
      },
    ],
    kills: [
      `${BATCH_TEST} › after a render that took t ms, waits t ms more before the next, so the page stays responsive`,
    ],
  },
  {
    id: 'chat-panel-text-as-html',
    protects: "the panel builds an answer's text as text nodes, never parsing it as HTML",
    build: true,
    edits: [
      {
        file: MD,
        find: '    createTextNode: (value) => doc.createTextNode(value),',
        replace:
          '    createTextNode: (value) => doc.createRange().createContextualFragment(value) as unknown as Text,',
      },
    ],
    kills: [
      `${E2E} › completes a multi-step task in the tab: the first message shares it, the form is really sent`,
    ],
  },
  {
    id: 'chat-one-per-tab',
    protects: "each tab has its own chat: one tab's conversation is not another's",
    build: true,
    edits: [
      {
        file: 'packages/extension/src/panel/tab-ids.ts',
        find: '  key: (tabId) => `chat.tab.${tabId}`,',
        replace: "  key: () => 'chat.tab',",
      },
    ],
    kills: [`${E2E} › runs two tabs at once without mixing them, and Stop ends the running turn`],
  },
  {
    id: 'chat-stream-render-per-piece',
    protects: 'a hostile streamed answer leaves Stop responsive: rendered per frame, not per piece',
    build: true,
    edits: [
      {
        file: BATCH,
        find: '    if (this.cancel !== null) return;',
        replace: '    return void this.render();',
      },
    ],
    kills: [`${E2E} › keeps Stop working while a hostile answer streams in thousands of 4-character pieces`],
  },
  {
    id: 'chat-stop-ends-turn',
    protects: "the panel's Stop ends the chat's running turn",
    build: true,
    edits: [
      {
        file: 'packages/agent/src/service.ts',
        find: '          this.runners.get(message.chatId)?.stop(emit);',
        replace: '',
      },
    ],
    kills: [
      `${E2E} › runs two tabs at once without mixing them, and Stop ends the running turn`,
      `${E2E} › keeps Stop working while a hostile answer streams in thousands of 4-character pieces`,
    ],
  },
];
