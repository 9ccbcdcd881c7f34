/**
 * The Anthropic Messages API through the official `@anthropic-ai/sdk`: one streamed message per step
 * (server-sent events), text deltas passed on as they come, `tool_use` blocks assembled from their
 * `input_json_delta` parts (several per message when the model calls tools in parallel). Tool results
 * go back as `tool_result` blocks of the next user message, each one answering its `tool_use` — the
 * API refuses a conversation where one is missing, which is why a stopped turn records synthetic ones.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { ContentBlockParam, MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import type { ConversationMessage, ToolCall } from '../conversation';
import { modelError } from './model-errors';
import { parseToolInput } from './tool-input';
import type { ChatModel, StepRequest, StepResult } from './provider';

export interface AnthropicOptions {
  readonly key: string | null;
  readonly baseUrl: string | null;
  readonly timeoutMs: number;
  readonly maxTokens?: number;
}

/** Consecutive messages of one role merged: the API wants user and assistant to alternate. */
function toWire(messages: readonly ConversationMessage[]): MessageParam[] {
  const wire: { role: 'user' | 'assistant'; content: ContentBlockParam[] }[] = [];
  const add = (role: 'user' | 'assistant', blocks: ContentBlockParam[]): void => {
    if (blocks.length === 0) return;
    const last = wire[wire.length - 1];
    if (last !== undefined && last.role === role) last.content.push(...blocks);
    else wire.push({ role, content: blocks });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        add('user', [{ type: 'text', text: message.text }]);
        break;
      case 'assistant':
        add('assistant', [
          ...(message.text === '' ? [] : [{ type: 'text' as const, text: message.text }]),
          ...message.toolCalls.map((call) => ({
            type: 'tool_use' as const,
            id: call.id,
            name: call.name,
            input: call.input,
          })),
        ]);
        break;
      case 'tool':
        add(
          'user',
          message.results.map((result) => ({
            type: 'tool_result' as const,
            tool_use_id: result.callId,
            is_error: !result.ok,
            content: [
              { type: 'text' as const, text: result.content },
              ...(result.image === undefined
                ? []
                : [
                    {
                      type: 'image' as const,
                      source: {
                        type: 'base64' as const,
                        media_type: result.image.mimeType as 'image/png' | 'image/jpeg',
                        data: result.image.data,
                      },
                    },
                  ]),
            ],
          })),
        );
        break;
    }
  }
  return wire;
}

export class AnthropicModel implements ChatModel {
  private readonly client: Anthropic;

  constructor(private readonly options: AnthropicOptions) {
    this.client = new Anthropic({
      apiKey: options.key ?? '',
      ...(options.baseUrl === null ? {} : { baseURL: options.baseUrl }),
      timeout: options.timeoutMs,
      maxRetries: 1,
    });
  }

  async step(request: StepRequest): Promise<StepResult> {
    const tools: Tool[] = request.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.inputSchema,
    }));
    let text = '';
    const blocks = new Map<number, { id: string; name: string; json: string }>();
    try {
      const stream = await this.client.messages.create(
        {
          model: request.model,
          max_tokens: this.options.maxTokens ?? 4096,
          system: request.system,
          messages: toWire(request.messages),
          stream: true,
          ...(tools.length === 0 ? {} : { tools }),
        },
        { signal: request.signal },
      );
      for await (const event of stream) {
        if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') {
          blocks.set(event.index, { id: event.content_block.id, name: event.content_block.name, json: '' });
        } else if (event.type === 'content_block_delta') {
          if (event.delta.type === 'text_delta') {
            text += event.delta.text;
            request.onText(event.delta.text);
          } else if (event.delta.type === 'input_json_delta') {
            const block = blocks.get(event.index);
            if (block !== undefined) block.json += event.delta.partial_json;
          }
        }
      }
    } catch (error) {
      if (request.signal.aborted) throw error;
      throw modelError('the Anthropic API', error, this.options.key);
    }
    const toolCalls: ToolCall[] = [...blocks.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, block]) => ({ id: block.id, name: block.name, input: parseToolInput(block.json) }));
    return { text, toolCalls };
  }
}
