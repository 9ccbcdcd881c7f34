/**
 * What running a tool gives the agent: the text the model sees (page content already fenced), an
 * optional image, and a short line for the chat panel. The panel never receives page content: reads
 * are summarised by their size, actions by the catalogue's one-line reply.
 */
import type { ErrorCode } from '@bproxy/protocol';
import type { ToolReply } from '@bproxy/tools';

export interface ToolRun {
  readonly ok: boolean;
  readonly content: string;
  readonly image?: { readonly data: string; readonly mimeType: string };
  /** One line for the panel (the `tool_result` message). */
  readonly summary: string;
  /** The catalogue code of a failure. */
  readonly code?: ErrorCode;
  /** Why a session is paused (HUMAN_REQUIRED). */
  readonly reason?: string;
  /**
   * What the tool read out of the agent's own store (recalled notes, a scratch file's text): the chat
   * remembers it, and a navigation to another site whose URL carries it is refused (exfiltration.ts).
   */
  readonly read?: readonly string[];
}

const SUMMARY_MAX = 300;

export function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length <= SUMMARY_MAX ? line : `${line.slice(0, SUMMARY_MAX - 1)}…`;
}

export function replyText(reply: ToolReply): string {
  return reply.content
    .filter((c): c is { type: 'text'; text: string } => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}

export function replyImage(reply: ToolReply): ToolRun['image'] {
  const image = reply.content.find(
    (c): c is { type: 'image'; data: string; mimeType: string } => c.type === 'image',
  );
  return image === undefined ? undefined : { data: image.data, mimeType: image.mimeType };
}

export function failure(code: ErrorCode, text: string, reason?: string): ToolRun {
  return {
    ok: false,
    content: text,
    summary: firstLine(text),
    code,
    ...(reason === undefined ? {} : { reason }),
  };
}
