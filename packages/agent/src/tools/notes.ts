/**
 * The notes memory, `BPROXY_HOME/agent/notes.json`: short named notes that persist across chats
 * (`remember`, `recall`, `forget`). Written atomically with mode 0600 and read through the state-file
 * checks, like every file of the state directory. Notes may repeat what a page said, so recalled notes
 * reach the model fenced as data. Caps: 200 notes of 2,000 characters.
 */
import { isLifecycleError, readStateFile, writeStateFileAtomic } from '@bproxy/client/lifecycle';
import { z } from 'zod';
import { fenceUntrusted } from '../system-prompt';
import type { LocalTool } from './local-tool';
import { failure, type ToolRun } from './tool-result';

export const NOTES_MAX = 200;
const Key = z.string().min(1).max(100);
const NotesFileSchema = z.strictObject({
  version: z.literal(1),
  notes: z.record(Key, z.strictObject({ text: z.string().max(2000), at: z.number() })),
});
type NotesFile = z.infer<typeof NotesFileSchema>;

export function notesTools(path: string, clock: () => number) {
  const load = (): NotesFile => {
    const text = readStateFile(path);
    if (text === null) return { version: 1, notes: {} };
    const parsed = NotesFileSchema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error('notes.json is not a valid notes file');
    return parsed.data;
  };
  const guarded = (run: () => ToolRun): ToolRun => {
    try {
      return run();
    } catch (error) {
      if (isLifecycleError(error)) return failure('UNSAFE_STATE_FILE', `UNSAFE_STATE_FILE: ${error.message}`);
      return failure(
        'LOCAL_ERROR',
        'LOCAL_ERROR: the notes file could not be read or written; tell the user',
      );
    }
  };

  const remember: LocalTool<z.ZodType<{ key: string; text: string }>> = {
    name: 'remember',
    description: 'Keep a short note under a name, for this and later chats',
    schema: z.strictObject({ key: Key, text: z.string().min(1).max(2000) }),
    run: ({ key, text }) =>
      guarded(() => {
        const file = load();
        if (!(key in file.notes) && Object.keys(file.notes).length >= NOTES_MAX)
          return failure(
            'BAD_REQUEST',
            `BAD_REQUEST: ${NOTES_MAX} notes kept already\nWhat to do: forget one first`,
          );
        file.notes[key] = { text, at: clock() };
        writeStateFileAtomic(path, `${JSON.stringify(file)}\n`);
        return { ok: true, content: `remembered "${key}"`, summary: `remembered "${key}"` };
      }),
  };

  const recall: LocalTool<z.ZodType<{ key?: string | undefined }>> = {
    name: 'recall',
    description: 'Read one note by name, or all notes',
    schema: z.strictObject({ key: Key.optional() }),
    run: ({ key }) =>
      guarded(() => {
        const notes = Object.entries(load().notes);
        const chosen = key === undefined ? notes : notes.filter(([name]) => name === key);
        if (key !== undefined && chosen.length === 0)
          return { ok: true, content: `no note named "${key}"`, summary: `no note "${key}"` };
        const text =
          chosen.length === 0 ? 'no notes yet' : chosen.map(([name, n]) => `${name}: ${n.text}`).join('\n');
        return {
          ok: true,
          content: fenceUntrusted('notes', text),
          summary: `recall: ${chosen.length} notes`,
        };
      }),
  };

  const forget: LocalTool<z.ZodType<{ key: string }>> = {
    name: 'forget',
    description: 'Delete a note by name',
    schema: z.strictObject({ key: Key }),
    run: ({ key }) =>
      guarded(() => {
        const file = load();
        const had = key in file.notes;
        delete file.notes[key];
        if (had) writeStateFileAtomic(path, `${JSON.stringify(file)}\n`);
        const line = had ? `forgot "${key}"` : `no note named "${key}"`;
        return { ok: true, content: line, summary: line };
      }),
  };
  return [remember, recall, forget] as const;
}
