/**
 * The agent's own tools (scratch files, notes) are declared like the catalogue's: a name, a
 * sentence, and an input schema — here a zod schema, from which the JSON Schema the model sees is
 * derived, so the argument check and the advertised shape cannot disagree.
 */
import { z } from 'zod';
import type { ToolDefinition } from '@bproxy/tools';
import { failure, type ToolRun } from './tool-result';

export interface AgentToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: ToolDefinition['inputSchema'];
}

/** Who a local tool runs for: the chat (notes are kept per chat) and the user's choice about notes. */
export interface ToolContext {
  readonly chatId: string;
  /** The user turned shared notes on (`bproxy agent config --shared-notes on`): one memory for all chats. */
  readonly sharedNotes: boolean;
}

export interface LocalTool<S extends z.ZodType<Record<string, unknown>>> {
  readonly name: string;
  readonly description: string;
  readonly schema: S;
  run(input: z.infer<S>, context: ToolContext): ToolRun;
}

export function definitionOf(tool: LocalTool<z.ZodType<Record<string, unknown>>>): AgentToolDefinition {
  const json = z.toJSONSchema(tool.schema, { io: 'input' }) as Record<string, unknown>;
  delete json.$schema;
  return { name: tool.name, description: tool.description, inputSchema: { ...json, type: 'object' } };
}

export function runLocalTool(
  tool: LocalTool<z.ZodType<Record<string, unknown>>>,
  args: Record<string, unknown>,
  context: ToolContext,
): ToolRun {
  const parsed = tool.schema.safeParse(args);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') || 'arguments';
    return failure(
      'BAD_REQUEST',
      `BAD_REQUEST: ${tool.name}: ${where}: ${issue?.message ?? 'invalid'}\nWhat to do: Fix the argument named here and call again`,
    );
  }
  return tool.run(parsed.data, context);
}
