/**
 * Any OpenAI-compatible chat-completions endpoint (OpenAI, OpenRouter, Ollama, LM Studio, vLLM) through
 * the official `openai` SDK: one streamed completion per step, text deltas passed on as they come,
 * tool calls assembled from their `tool_calls` deltas by index (parallel calls included). The
 * conversation is translated here: assistant tool calls as `tool_calls`, results as `tool` messages,
 * and a screenshot as an image part of a user message right after them (tool messages carry text only).
 *
 * The package declares Node ≥ 22; its chat-completions path runs on Node 20 (this package's tests
 * stream through it on Node 20).
 */
import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { ConversationMessage, ToolCall } from '../conversation';
import { modelError } from './model-errors';
import { parseToolInput } from './tool-input';
import type { ChatModel, StepRequest, StepResult } from './provider';

export interface OpenAiOptions {
  readonly key: string | null;
  /** Default https://api.openai.com/v1. */
  readonly baseUrl: string | null;
  readonly timeoutMs: number;
}

function toWire(system: string, messages: readonly ConversationMessage[]): ChatCompletionMessageParam[] {
  const wire: ChatCompletionMessageParam[] = [{ role: 'system', content: system }];
  messages.forEach((message, index) => {
    switch (message.role) {
      case 'user':
        wire.push({ role: 'user', content: message.text });
        return;
      case 'assistant':
        if (message.toolCalls.length === 0) {
          wire.push({ role: 'assistant', content: message.text });
          return;
        }
        wire.push({
          role: 'assistant',
          content: message.text === '' ? null : message.text,
          tool_calls: message.toolCalls.map((call) => ({
            id: call.id,
            type: 'function' as const,
            function: { name: call.name, arguments: JSON.stringify(call.input) },
          })),
        });
        return;
      case 'tool': {
        for (const result of message.results)
          wire.push({ role: 'tool', tool_call_id: result.callId, content: result.content });
        // Images only from the newest results: older screenshots would cost tokens for nothing.
        const images =
          index === messages.length - 1 ? message.results.filter((r) => r.image !== undefined) : [];
        if (images.length > 0)
          wire.push({
            role: 'user',
            content: images.flatMap((r) => [
              { type: 'text' as const, text: `Screenshot from ${r.name} (${r.callId}):` },
              {
                type: 'image_url' as const,
                image_url: { url: `data:${r.image?.mimeType};base64,${r.image?.data}` },
              },
            ]),
          });
        return;
      }
    }
  });
  return wire;
}

export class OpenAiModel implements ChatModel {
  private readonly client: OpenAI;
  private readonly endpoint: string;

  constructor(private readonly options: OpenAiOptions) {
    this.endpoint = options.baseUrl ?? 'the OpenAI API';
    this.client = new OpenAI({
      // Local servers take any key; the SDK insists on one.
      apiKey: options.key ?? 'none',
      ...(options.baseUrl === null ? {} : { baseURL: options.baseUrl }),
      timeout: options.timeoutMs,
      maxRetries: 1,
    });
  }

  async step(request: StepRequest): Promise<StepResult> {
    const tools: ChatCompletionTool[] = request.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
    }));
    let text = '';
    const calls = new Map<number, { id: string; name: string; args: string }>();
    try {
      const stream = await this.client.chat.completions.create(
        {
          model: request.model,
          messages: toWire(request.system, request.messages),
          stream: true,
          ...(tools.length === 0 ? {} : { tools }),
        },
        { signal: request.signal },
      );
      for await (const chunk of stream) {
        const delta = chunk.choices[0]?.delta;
        if (delta === undefined) continue;
        if (typeof delta.content === 'string' && delta.content !== '') {
          text += delta.content;
          request.onText(delta.content);
        }
        for (const part of delta.tool_calls ?? []) {
          const call = calls.get(part.index) ?? { id: '', name: '', args: '' };
          if (part.id) call.id = part.id;
          if (part.function?.name) call.name += part.function.name;
          if (part.function?.arguments) call.args += part.function.arguments;
          calls.set(part.index, call);
        }
      }
    } catch (error) {
      if (request.signal.aborted) throw error;
      throw modelError(this.endpoint, error, this.options.key);
    }
    const toolCalls: ToolCall[] = [...calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => ({
        id: call.id === '' ? `call_${index}` : call.id,
        name: call.name,
        input: parseToolInput(call.args),
      }));
    return { text, toolCalls };
  }
}
