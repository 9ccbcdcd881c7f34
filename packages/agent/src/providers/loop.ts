/**
 * The agent loop for providers that answer one model call at a time: call the model with the
 * conversation and the tools, run the tool calls it asked for — in the order given, one after the
 * other, since they act on one tab — append the results, and call it again, until it answers without
 * tool calls, the user stops the turn, a page pauses the session, or the step cap is reached. Every
 * message is recorded as soon as it exists, and every tool call gets a result before the model is
 * called again (the Anthropic API requires it; the turn makes the results synthetic on stop).
 */
import { AgentError } from '../errors';
import type { ConversationMessage, ToolResult } from '../conversation';
import type { ChatModel, TurnEnding, TurnRequest } from './provider';

export async function runLoop(model: ChatModel, request: TurnRequest): Promise<TurnEnding> {
  const messages: ConversationMessage[] = [...request.history];
  const push = (message: ConversationMessage): void => {
    messages.push(message);
    request.record(message);
  };
  push({ role: 'user', text: request.userText });
  for (let step = 0; step < request.maxSteps; step++) {
    let streamed = '';
    let result;
    try {
      result = await model.step({
        model: request.model,
        system: request.system,
        messages,
        tools: request.tools,
        signal: request.signal,
        onText: (delta) => {
          streamed += delta;
          request.onText(delta);
        },
      });
    } catch (error) {
      // What was said before the stop or the failure stays in the chat; half-streamed tool calls do not.
      if (streamed !== '') push({ role: 'assistant', text: streamed, toolCalls: [] });
      if (request.signal.aborted) return { kind: 'stopped' };
      throw error;
    }
    // An SDK may end an aborted stream quietly instead of throwing: its tool calls are cut short.
    if (request.signal.aborted) {
      if (result.text !== '') push({ role: 'assistant', text: result.text, toolCalls: [] });
      return { kind: 'stopped' };
    }
    push({ role: 'assistant', text: result.text, toolCalls: result.toolCalls });
    if (result.toolCalls.length === 0) return { kind: 'done' };
    const results: ToolResult[] = [];
    for (const call of result.toolCalls) results.push(await request.runTool(call));
    push({ role: 'tool', results });
    if (request.signal.aborted) return { kind: 'stopped' };
    const paused = results.find((r) => r.pausedFor !== undefined)?.pausedFor;
    if (paused !== undefined) return { kind: 'paused', reason: paused };
  }
  throw new AgentError(
    'TURN_LIMIT',
    `the turn reached its cap of ${request.maxSteps} model calls and was ended`,
  );
}
