/**
 * The CLI and the MCP server check the version of the daemon they find running (issue 21 §3): a daemon
 * of a version they do not work with (the protocol's rule, compatibility.ts) is refused with
 * VERSION_MISMATCH, which names the older part and the command that fixes it, and nothing is sent to
 * it; a compatible difference (another patch release) works. The other daemons are the built
 * daemon.mjs with only its version rewritten (tests/kit/versions.ts), started through BPROXY_DAEMON.
 * No browser: the daemons start with `--browser none`.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BPROXY_VERSION } from '@bproxy/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { Cli } from '../kit/cli';
import { McpClient } from '../kit/mcp';
import { ROOT } from '../kit/paths';
import { compatibleVersion, rewriteVersion } from '../kit/versions';

const folder = mkdtempSync(join(tmpdir(), 'bproxy-daemon-version-'));
const clis: Cli[] = [];
afterAll(async () => {
  for (const cli of clis) await cli.dispose();
  rmSync(folder, { recursive: true, force: true });
});

/** The built daemon bundle as release `version` would have built it. */
function daemonOf(version: string): string {
  // Named daemon.mjs: the client knows its daemon by the script's name (and BPROXY_HOME).
  mkdirSync(join(folder, version), { recursive: true });
  const file = join(folder, version, 'daemon.mjs');
  copyFileSync(join(ROOT, 'packages', 'cli', 'dist', 'daemon.mjs'), file);
  rewriteVersion(file, version);
  return file;
}

async function cliWithDaemon(version: string): Promise<Cli> {
  const cli = new Cli('bproxy-daemon-version-');
  clis.push(cli);
  cli.setEnv({ BPROXY_DAEMON: daemonOf(version) });
  await cli.start(['--browser', 'none']);
  return cli;
}

describe('a running daemon of another version', () => {
  it('an older one is refused by the CLI and the MCP server with VERSION_MISMATCH naming `bproxy service stop`; after it, a daemon of this version serves', async () => {
    const cli = await cliWithDaemon('0.0.7');
    const refused = await cli.fail(['session', 'list']);
    expect(refused.code).toBe('VERSION_MISMATCH');
    expect(refused.message).toContain(
      `the running daemon is version 0.0.7, older than this bproxy ${BPROXY_VERSION}`,
    );
    expect(refused.message).toContain('`bproxy service stop`');

    const mcp = await McpClient.start(cli.environment());
    try {
      const reply = await mcp.call('tab_list');
      expect(reply.isError).toBe(true);
      expect(reply.text).toContain('VERSION_MISMATCH');
      expect(reply.text).toContain('the running daemon is version 0.0.7');
      expect(reply.text).toContain('`bproxy service stop`');
    } finally {
      await mcp.close();
    }

    // The fix it names: stop the old daemon; the next start runs this version's.
    await cli.stop();
    cli.setEnv({ BPROXY_DAEMON: join(ROOT, 'packages', 'cli', 'dist', 'daemon.mjs') });
    await cli.start(['--browser', 'none']);
    const status = await cli.ok<{ version: string }>(['debug', 'status']);
    expect(status.version).toBe(BPROXY_VERSION);
  }, 60_000);

  it('a compatible one (another patch release) serves the CLI', async () => {
    const cli = await cliWithDaemon(compatibleVersion());
    const status = await cli.ok<{ version: string }>(['debug', 'status']);
    expect(status.version).toBe(compatibleVersion());
  }, 60_000);
});
