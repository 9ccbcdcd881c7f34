/**
 * The "download" approval class at the daemon: a download a session's tab starts in the user's Chrome
 * (a scripted extension reporting it as the real one does, the file where Chrome would have put it) is
 * not kept while the class asks — `wait --download` answers APPROVAL_REQUIRED naming the approval, and
 * its bytes are removed —; after a person's "Allow once" the same download started again is filed, once;
 * a policy that denies the class answers POLICY_DENIED, and one that allows it files without asking.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  EXTENSION_DOWNLOAD_FOLDER,
  type BproxyResponse,
  type PolicyDecision,
  type SitePolicy,
  type UserRequest,
} from '@bproxy/protocol';
import { memoryPolicy } from '../../src/policy/site-policy';
import { FakeExtension, okData, startDaemon, type TestDaemon } from '../harness';

const ORIGIN = 'http://shop.test';
const URL = `${ORIGIN}/download/report.csv`;

/** A policy whose classes say `download`; none: the built-in defaults of where the browser is. */
const policy = (download: PolicyDecision | null): SitePolicy => ({
  version: 1,
  default: 'allow',
  origins: {},
  ...(download === null ? {} : { classes: { download } }),
});

let daemon: TestDaemon | undefined;
let ext: FakeExtension | undefined;
const roots: string[] = [];
afterEach(async () => {
  await ext?.drop();
  await daemon?.close();
  ext = undefined;
  daemon = undefined;
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

interface Download {
  file: string;
  state: string;
  code?: string;
}

/** A daemon with the policy, the scripted extension, a session on the shop's page, and a downloader. */
async function shop(download: PolicyDecision | null) {
  daemon = await startDaemon({ sitePolicy: memoryPolicy(policy(download)) });
  const d = daemon;
  const fake = new FakeExtension(d);
  ext = fake;
  fake.behaviour = (req) =>
    req.action === 'tab.open'
      ? { ok: true, data: { tabId: 7, url: `${ORIGIN}/reports`, title: 'Reports' } }
      : fake.defaultAnswer(req);
  await fake.connect();
  const { session } = okData<{ session: string }>(await d.call('tab.open', { url: `${ORIGIN}/reports` }));
  const user = mkdtempSync(join(tmpdir(), 'bproxy-user-downloads-'));
  roots.push(user);
  let n = 0;
  /** The tab downloads URL: Chrome writes it under bproxy-downloads/<guid>/, the extension reports it. */
  const downloadOnce = (): string => {
    const guid = `0b6c2f0e-5d4b-4b8e-9a51-3e1f0c2d7a1${++n}`;
    const dir = join(user, EXTENSION_DOWNLOAD_FOLDER, guid);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'report.csv'), `bytes ${n}`);
    const base = { type: 'download', tabId: 7, guid, url: URL, name: 'report.csv' } as const;
    fake.send({ ...base, state: 'started', bytes: 0 });
    fake.send({ ...base, state: 'completed', bytes: 7, path: join(dir, 'report.csv') });
    return dir;
  };
  const wait = (): Promise<BproxyResponse> => d.call('wait', { download: true }, session);
  const listed = async (): Promise<Download[]> =>
    okData<{ downloads: Download[] }>(await d.call('downloads', {}, session)).downloads;
  return { d, session, downloadOnce, wait, listed };
}

async function decide(d: TestDaemon, request: UserRequest): Promise<unknown> {
  const handler = d.server.deps.drivers.userRequests;
  const record = d.server.deps.clients.all().find((c) => c.kind === 'extension');
  if (!handler || !record) throw new Error('no extension');
  return handler(record, request);
}

describe('the download approval class', () => {
  it('keeps nothing of a download while the class asks, files the one started again after Allow once, and asks again after', async () => {
    const { d, downloadOnce, wait, listed } = await shop('ask');
    const dir = downloadOnce();
    const held = await wait();
    expect(held.ok).toBe(false);
    if (held.ok) return;
    expect(held.error.code).toBe('APPROVAL_REQUIRED');
    expect(held.error.message).toContain(URL);
    expect(held.error.details).toMatchObject({
      class: 'download',
      origin: ORIGIN,
      download: { state: 'refused' },
    });
    const id = String(held.error.details?.approval);
    expect(existsSync(dir)).toBe(false);
    expect(await listed()).toMatchObject([{ state: 'refused', code: 'APPROVAL_REQUIRED' }]);

    expect(await decide(d, { kind: 'approval_decide', id, decision: 'allow_once' })).toMatchObject({
      ok: true,
    });
    downloadOnce();
    const filed = okData<{ download: Download }>(await wait()).download;
    expect(filed.state).toBe('completed');
    expect(readFileSync(filed.file, 'utf8')).toBe('bytes 2');

    downloadOnce();
    const again = await wait();
    expect(!again.ok && again.error.code).toBe('APPROVAL_REQUIRED');
    expect(readdirSync(join(filed.file, '..'))).toEqual(['report.csv']);
  });

  it("asks by default in the user's Chrome: a policy that names no download class keeps nothing and asks", async () => {
    const { d, downloadOnce, wait } = await shop(null);
    const dir = downloadOnce();
    const held = await wait();
    expect(!held.ok && held.error.code).toBe('APPROVAL_REQUIRED');
    expect(existsSync(dir)).toBe(false);
    expect(d.server.deps.approvals.pending()).toMatchObject([{ class: 'download', origin: ORIGIN }]);
  });

  it('answers POLICY_DENIED when the policy denies the class, and files without asking when it allows it', async () => {
    const denied = await shop('deny');
    const dir = denied.downloadOnce();
    const res = await denied.wait();
    expect(!res.ok && res.error.code).toBe('POLICY_DENIED');
    expect(existsSync(dir)).toBe(false);
    expect(denied.d.server.deps.approvals.pending()).toEqual([]);
    await ext?.drop();
    await daemon?.close();

    const allowed = await shop('allow');
    allowed.downloadOnce();
    expect(okData<{ download: Download }>(await allowed.wait()).download.state).toBe('completed');
    expect(allowed.d.server.deps.approvals.pending()).toEqual([]);
  });
});
