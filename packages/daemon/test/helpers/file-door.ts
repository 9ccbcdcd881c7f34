/**
 * What the tests of the daemon's file doors (upload, drop) share: an allowed folder holding one file,
 * a folder outside holding a secret, and a daemon allowing the first with a scripted extension that
 * answers the door's action as a page would; the daemon and extension of each test closed after it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';
import { DEFAULT_SITE_POLICY } from '@bproxy/protocol';
import { memoryPolicy } from '../../src/policy/site-policy';
import { FakeExtension, okData, startDaemon, type TestDaemon } from '../harness';

export interface FileDoor {
  readonly allowed: string;
  readonly outside: string;
  /** A daemon allowing `allowed`, a connected extension answering `action`, a session with a tab. */
  sessionWithTab(): Promise<{ session: string; folder: string; d: TestDaemon; e: FakeExtension }>;
  /** Hands the door a daemon a test started itself, to be closed after the test. */
  own(d: TestDaemon): void;
}

/** Call at the top of a test file: `file` (name, bytes) is written into the allowed folder. */
export function fileDoor(action: 'upload' | 'drop', file: [string, string]): FileDoor {
  const allowed = mkdtempSync(join(tmpdir(), `bproxy-${action}-allowed-`));
  const outside = mkdtempSync(join(tmpdir(), `bproxy-${action}-outside-`));
  writeFileSync(join(allowed, file[0]), file[1]);
  writeFileSync(join(outside, 'secret.txt'), 'secret');
  let daemon: TestDaemon | undefined;
  let ext: FakeExtension | undefined;
  afterEach(async () => {
    await ext?.drop();
    await daemon?.close();
  });
  afterAll(() => {
    rmSync(allowed, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });
  return {
    allowed,
    outside,
    own: (d) => {
      daemon = d;
    },
    async sessionWithTab() {
      // The user's Chrome: uploads ask by default (approvals); the person allowed them here.
      const sitePolicy = memoryPolicy({ ...DEFAULT_SITE_POLICY, classes: { upload: 'allow' } });
      const d = await startDaemon({ allowedFolders: [allowed], sitePolicy });
      const e = new FakeExtension(d);
      daemon = d;
      ext = e;
      await e.connect();
      e.behaviour = (req) =>
        req.action === action
          ? { ok: true, data: { url: 'http://x/', title: 'Page', navigated: false } }
          : e.defaultAnswer(req);
      const created = okData<{ session: string; tmpDir: string }>(await d.call('session.create', {}));
      okData(await d.call('tab.open', { url: 'http://x/' }, created.session));
      return { session: created.session, folder: created.tmpDir, d, e };
    },
  };
}
