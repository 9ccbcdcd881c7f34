/**
 * The notes memory, `BPROXY_HOME/agent/notes.json`: short named notes (`remember`, `recall`,
 * `forget`), kept per chat. A note written in one chat is not seen in another — a page in one tab must
 * not get the agent to recall what was said in another chat — unless the user turned on shared notes
 * (`bproxy agent config --shared-notes on`, a setting neither the model nor the panel can change):
 * then notes go to, and come from, one memory shared by every chat. Notes kept before notes were per
 * chat are shared ones. Written atomically with mode 0600 and read through the state-file checks, like
 * every file of the state directory. Notes may repeat what a page said, so recalled notes reach the
 * model fenced as data, and what was recalled is remembered as read (a navigation to another site may
 * not carry it: toolbox.ts). Caps: 200 notes of 2,000 characters per chat (or shared), 1,000 in all.
 */
import { isLifecycleError, readStateFile, writeStateFileAtomic } from '@bproxy/client/lifecycle';
import { z } from 'zod';
import { fenceUntrusted } from '@bproxy/tools';
import type { LocalTool, ToolContext } from './local-tool';
import { failure, type ToolRun } from './tool-result';

export const NOTES_MAX = 200;
export const NOTES_MAX_TOTAL = 1000;
const Key = z
  .string()
  .min(1)
  .max(100)
  .refine((key) => key !== '__proto__', 'choose another name');
const Note = z.strictObject({ text: z.string().max(2000), at: z.number() });
const Notes = z.record(Key, Note);
type Notes = z.infer<typeof Notes>;
const LegacyFileSchema = z.strictObject({ version: z.literal(1), notes: Notes });
const NotesFileSchema = z.strictObject({
  version: z.literal(2),
  /** Each chat's own notes, by `chat:<chat id>`. */
  chats: z.record(z.string().max(70), Notes),
  /** The notes every chat sees when the user turned shared notes on. */
  shared: Notes,
});
type NotesFile = z.infer<typeof NotesFileSchema>;

function loadNotes(path: string): NotesFile {
  const text = readStateFile(path);
  if (text === null) return { version: 2, chats: {}, shared: {} };
  const json: unknown = JSON.parse(text);
  const legacy = LegacyFileSchema.safeParse(json);
  // Notes from before they were per chat belonged to every chat: they are the shared ones.
  if (legacy.success) return { version: 2, chats: {}, shared: legacy.data.notes };
  const parsed = NotesFileSchema.safeParse(json);
  if (!parsed.success) throw new Error('notes.json is not a valid notes file');
  return parsed.data;
}

/** The notes this chat reads and writes: its own, or the shared ones when the user said so. */
function scope(file: NotesFile, context: ToolContext): Notes {
  if (context.sharedNotes) return file.shared;
  // Prefixed, so that no chat id can name an object's own machinery (`__proto__`).
  const name = `chat:${context.chatId}`;
  const own = file.chats[name] ?? {};
  file.chats[name] = own;
  return own;
}

function saveNotes(path: string, file: NotesFile): void {
  for (const [chat, notes] of Object.entries(file.chats))
    if (Object.keys(notes).length === 0) delete file.chats[chat];
  writeStateFileAtomic(path, `${JSON.stringify(file)}\n`);
}

function total(file: NotesFile): number {
  return (
    Object.values(file.chats).reduce((n, notes) => n + Object.keys(notes).length, 0) +
    Object.keys(file.shared).length
  );
}

/** A tool's run with the notes file's failures as tool failures. */
function guarded(run: () => ToolRun): ToolRun {
  try {
    return run();
  } catch (error) {
    if (isLifecycleError(error)) return failure('UNSAFE_STATE_FILE', `UNSAFE_STATE_FILE: ${error.message}`);
    return failure('LOCAL_ERROR', 'LOCAL_ERROR: the notes file could not be read or written; tell the user');
  }
}

export function notesTools(path: string, clock: () => number) {
  const remember: LocalTool<z.ZodType<{ key: string; text: string }>> = {
    name: 'remember',
    description: 'Keep a short note under a name, for later in this chat',
    schema: z.strictObject({ key: Key, text: z.string().min(1).max(2000) }),
    run: ({ key, text }, context) =>
      guarded(() => {
        const file = loadNotes(path);
        const notes = scope(file, context);
        if (!(key in notes) && (Object.keys(notes).length >= NOTES_MAX || total(file) >= NOTES_MAX_TOTAL))
          return failure(
            'BAD_REQUEST',
            `BAD_REQUEST: ${NOTES_MAX} notes kept already\nWhat to do: forget one first`,
          );
        notes[key] = { text, at: clock() };
        saveNotes(path, file);
        return { ok: true, content: `remembered "${key}"`, summary: `remembered "${key}"` };
      }),
  };

  const recall: LocalTool<z.ZodType<{ key?: string | undefined }>> = {
    name: 'recall',
    description: 'Read one note of this chat by name, or all of them',
    schema: z.strictObject({ key: Key.optional() }),
    run: ({ key }, context) =>
      guarded(() => {
        const notes = Object.entries(scope(loadNotes(path), context));
        const chosen = key === undefined ? notes : notes.filter(([name]) => name === key);
        if (key !== undefined && chosen.length === 0)
          return { ok: true, content: `no note named "${key}"`, summary: `no note "${key}"` };
        const text =
          chosen.length === 0 ? 'no notes yet' : chosen.map(([name, n]) => `${name}: ${n.text}`).join('\n');
        return {
          ok: true,
          content: fenceUntrusted(text, 'notes'),
          summary: `recall: ${chosen.length} notes`,
          read: chosen.map(([, n]) => n.text),
        };
      }),
  };

  const forget: LocalTool<z.ZodType<{ key: string }>> = {
    name: 'forget',
    description: 'Delete a note of this chat by name',
    schema: z.strictObject({ key: Key }),
    run: ({ key }, context) =>
      guarded(() => {
        const file = loadNotes(path);
        const notes = scope(file, context);
        const had = key in notes;
        delete notes[key];
        if (had) saveNotes(path, file);
        const line = had ? `forgot "${key}"` : `no note named "${key}"`;
        return { ok: true, content: line, summary: line };
      }),
  };
  return [remember, recall, forget] as const;
}
