/**
 * The files group as an agent meets it, written once and run on both drivers (files-cdp.test.ts,
 * files-extension.test.ts): upload by handle through the CLI and through MCP — a single file input, a
 * multiple one, a hidden input a button opens, each answering the chooser with trusted input so the page
 * sees trusted input and change events, and the fixture server checking the bytes the page posted —,
 * and every refusal with its code and nothing set: a file outside the allowed folders, a path naming
 * `..`, a symbolic link out, a type the input does not accept, two files for a single input; pdf into
 * the session's folder or --out inside an allowed folder, and --out outside refused. The
 * daemon is started with `--allow-files` on one extra folder (FilesEnv.allowed).
 */
import {
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Agent, type DriverUnderTest, type SuiteEnv } from '../agent';
import { allowClasses } from '../allow-classes';
import { McpClient, handleOf } from '../mcp';
import { until } from '../wait';

const T = 60_000;

export interface FilesEnv extends SuiteEnv {
  /** A folder `service start --allow-files` named. */
  allowed: string;
  /** A folder nobody allowed, with a file in it (secret.txt). */
  outside: string;
}

export interface FilesDriver extends Omit<DriverUnderTest, 'start'> {
  start(): Promise<FilesEnv>;
}

interface Uploaded {
  url: string;
  navigated: boolean;
  files: { file: string; bytes: number }[];
}

/** A tiny PNG's bytes (signature and a name-specific tail: the server compares them byte for byte). */
const png = (tag: string): Buffer =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(tag)]);

export function defineFilesSuite(driver: FilesDriver): void {
  describe(`files through ${driver.label}`, () => {
    let env: FilesEnv | undefined;
    const setup = async (): Promise<{ env: FilesEnv; agent: Agent }> => {
      if (env === undefined) {
        env = await driver.start();
        // Files are uploaded and the form's "Send" pressed: a person allowed both (approvals).
        allowClasses(env.cli.home, ['upload', 'send']);
      }
      return { env, agent: new Agent(env) };
    };
    /** A session on the upload page and its folder. */
    const onUploadPage = async () => {
      const { env: e, agent } = await setup();
      const created = await e.cli.ok<{ session: string; tmpDir: string }>([
        'session',
        'create',
        '--pacing',
        'fast',
      ]);
      await agent.openTab(created.session, 'upload.html');
      return { e, agent, s: created.session, folder: created.tmpDir };
    };
    const log = async (agent: Agent, s: string) => (await agent.text(s)).split('\n');

    it(
      'sets a file input, a multiple one and a hidden one a button opens, by handle, with trusted events; the server gets the bytes',
      async () => {
        const { e, agent, s, folder } = await onUploadPage();
        writeFileSync(join(folder, 'note.txt'), 'the note, byte for byte\n');
        writeFileSync(join(e.allowed, 'a.png'), png('a'));
        writeFileSync(join(e.allowed, 'b.png'), png('bb'));
        writeFileSync(join(folder, 'attached.bin'), Buffer.from([0, 1, 2, 3, 255]));
        const [doc, photos, pick, send] = await agent.handles(
          s,
          'Document',
          'Photos',
          'Choose attachment',
          'Send',
        );

        // A relative path is taken from the session's folder (the CLI resolves it from its cwd first:
        // give it absolute here), an absolute one from a folder --allow-files named.
        const one = await e.cli.ok<Uploaded>(['upload', '-s', s, doc, join(folder, 'note.txt')]);
        expect(one.files).toEqual([{ file: 'note.txt', bytes: 24 }]);
        expect(one.navigated).toBe(false);
        const two = await e.cli.ok<Uploaded>([
          'upload',
          '-s',
          s,
          photos,
          join(e.allowed, 'a.png'),
          join(e.allowed, 'b.png'),
        ]);
        expect(two.files.map((f) => f.file)).toEqual(['a.png', 'b.png']);
        const hidden = await e.cli.ok<Uploaded>(['upload', '-s', s, pick, join(folder, 'attached.bin')]);
        expect(hidden.files).toEqual([{ file: 'attached.bin', bytes: 5 }]);

        const lines = await log(agent, s);
        for (const line of [
          'doc input trusted=true: note.txt(24)',
          'doc change trusted=true: note.txt(24)',
          'photos change trusted=true: a.png(9) b.png(10)',
          'attachment change trusted=true: attached.bin(5)',
        ])
          expect(lines).toContain(line);

        await e.cli.ok(['click', '-s', s, send]);
        await until('the page to post the files', async () => (await log(agent, s)).includes('sent 4'));
        expect(e.pages.received('note.txt')?.toString()).toBe('the note, byte for byte\n');
        expect(e.pages.received('a.png')?.equals(png('a'))).toBe(true);
        expect(e.pages.received('b.png')?.equals(png('bb'))).toBe(true);
        expect(e.pages.received('attached.bin')?.equals(Buffer.from([0, 1, 2, 3, 255]))).toBe(true);
        await agent.close(s);
      },
      T,
    );

    it(
      'refuses a file outside the allowed folders, a path naming "..", a link out, a refused type and two files for one: a code each, nothing set',
      async () => {
        const { e, agent, s, folder } = await onUploadPage();
        const [doc] = await agent.handles(s, 'Document');
        const secret = join(e.outside, 'secret.txt');
        writeFileSync(secret, 'not for agents');
        symlinkSync(secret, join(folder, 'link.txt'));
        mkdirSync(join(folder, 'sub'), { recursive: true });
        writeFileSync(join(folder, 'ok.txt'), 'ok');
        writeFileSync(join(folder, 'photo.png'), png('p'));
        const refusal = async (files: string[]) =>
          (await e.cli.fail(['upload', '-s', s, doc, ...files])).code;

        expect(await refusal([secret])).toBe('PATH_NOT_ALLOWED');
        // Written as given (path.join would fold the ".." away): refused by name, even staying inside.
        expect(await refusal([`${folder}/sub/../../x.txt`])).toBe('PATH_NOT_ALLOWED');
        expect(await refusal([`${folder}/sub/../ok.txt`])).toBe('PATH_NOT_ALLOWED');
        expect(await refusal([join(folder, 'link.txt')])).toBe('PATH_NOT_ALLOWED');
        expect(await refusal([join(folder, 'missing.txt')])).toBe('FILE_NOT_FOUND');
        expect(await refusal([join(folder, 'photo.png')])).toBe('FILE_NOT_ACCEPTED');
        expect(await refusal([join(folder, 'ok.txt'), join(folder, 'ok.txt')])).toBe('FILE_NOT_ACCEPTED');
        // Nothing reached the page: no input or change event at all.
        expect((await log(agent, s)).filter((l) => l.startsWith('doc '))).toEqual([]);
        expect(readFileSync(secret, 'utf8')).toBe('not for agents');
        await agent.close(s);
      },
      T,
    );

    it(
      "saves the page as PDF in the session's folder or --out inside an allowed folder, and refuses --out outside",
      async () => {
        const { e, agent, s, folder } = await onUploadPage();
        const saved = await e.cli.ok<{ file: string; bytes: number }>(['pdf', '-s', s]);
        expect(dirname(saved.file)).toBe(realpathSync(folder));
        const bytes = readFileSync(saved.file);
        expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
        expect(bytes.length).toBe(saved.bytes);
        expect(statSync(saved.file).mode & 0o777).toBe(0o600);
        const out = join(e.allowed, 'wide.pdf');
        const wide = await e.cli.ok<{ file: string }>([
          'pdf',
          '-s',
          s,
          '--out',
          out,
          '--paper',
          'a4',
          '--landscape',
          '--background',
        ]);
        expect(wide.file).toBe(realpathSync(out));
        expect(readFileSync(out).subarray(0, 5).toString('latin1')).toBe('%PDF-');
        const outside = join(e.outside, 'page.pdf');
        expect((await e.cli.fail(['pdf', '-s', s, '--out', outside])).code).toBe('PATH_NOT_ALLOWED');
        expect((await e.cli.fail(['pdf', '-s', s, '--out', `${folder}/../escape.pdf`])).code).toBe(
          'PATH_NOT_ALLOWED',
        );
        expect(existsSync(outside)).toBe(false);
        await agent.close(s);
      },
      T,
    );

    describe('through MCP', () => {
      let mcp: McpClient | undefined;
      afterAll(async () => {
        await mcp?.close();
      });

      it(
        'uploads by handle from an allowed folder and refuses one outside with its code',
        async () => {
          const { env: e } = await setup();
          mcp = await McpClient.start(e.cli.environment(), ['--browser', e.browser, '--caps', 'files']);
          await mcp.ok('tab_open', { url: e.pages.url('upload.html') });
          const snapshot = await mcp.ok('snapshot');
          const doc = handleOf(snapshot, /Document/);
          writeFileSync(join(e.allowed, 'mcp.txt'), 'sent through mcp');
          const answer = await mcp.ok('upload', { target: doc, files: [join(e.allowed, 'mcp.txt')] });
          expect(answer).toContain('mcp.txt');
          expect(await mcp.ok('text')).toContain('doc change trusted=true: mcp.txt(16)');
          const refused = await mcp.call('upload', { target: doc, files: [join(e.outside, 'secret.txt')] });
          expect(refused.isError).toBe(true);
          expect(refused.text).toContain('PATH_NOT_ALLOWED');
          expect(await mcp.ok('pdf', { out: join(e.allowed, 'mcp.pdf') })).toContain('mcp.pdf');
          expect(readFileSync(join(e.allowed, 'mcp.pdf')).subarray(0, 5).toString('latin1')).toBe('%PDF-');
        },
        T,
      );
    });
  });
}
