/**
 * The reply of every tool, pinned: each action's one-line reply (or the page it read, or the image it
 * took) for the results a model meets, so that the renderers can move without a model reading a
 * different word. The expected replies (test/replies.json) were taken from the renderers before
 * they moved; they are compared as the bytes a client receives (JSON, in its key order).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { successReply } from '../src/replies';
import { UNTRUSTED_NONCE } from '../src/untrusted';
import { CASES } from './reply-cases';

describe('tool replies', () => {
  it('are the same for every tool and result the catalogue has', () => {
    const rendered = CASES.map(([tool, params, data]) => ({ tool, reply: successReply(tool, params, data) }));
    const expected: unknown = JSON.parse(readFileSync(new URL('replies.json', import.meta.url), 'utf8'));
    // The fence's nonce is new in every process: the pinned replies name it NONCE.
    expect(JSON.stringify(rendered).split(UNTRUSTED_NONCE).join('NONCE')).toBe(JSON.stringify(expected));
  });
});
