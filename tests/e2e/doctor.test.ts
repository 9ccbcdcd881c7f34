/**
 * `bproxy doctor` on a healthy install, as a user has it: the native host installed by the CLI into a
 * (temporary) HOME, a headless Chromium with the built extension, which starts the daemon through the
 * host and pairs by itself. Every check passes (the agent, not configured, is a warning), the exit
 * code is 0, and the JSON report has the protocol's shape. The broken states, which need no browser,
 * are packages/cli/test/commands/doctor/doctor.test.ts. One Chromium launch.
 */
import { BPROXY_VERSION, DEFAULT_EXTENSION_ID, DoctorReportSchema } from '@bproxy/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoChromiumLeft } from '../kit/chromium';
import { launchWithNativeHost, type NativeMachine } from '../kit/native-host';

let machine: NativeMachine;

beforeAll(async () => {
  machine = await launchWithNativeHost('bproxy-e2e-doctor-');
}, 90_000);

afterAll(async () => {
  const dirs = [machine?.browser.userDataDir].filter((d): d is string => d !== undefined);
  await machine?.close();
  await expectNoChromiumLeft(dirs);
}, 60_000);

describe('bproxy doctor on a healthy install', () => {
  it('passes every check with the extension paired and connected through the native host, exit 0', async () => {
    await machine.connected();
    const run = await machine.cli.run(['doctor', '--json'], 60_000);
    const report = DoctorReportSchema.parse(JSON.parse(run.stdout));
    expect(report.checks.filter((check) => check.status === 'fail')).toEqual([]);
    expect(run.code).toBe(0);
    expect(report).toMatchObject({ ok: true, version: BPROXY_VERSION, home: machine.cli.home });
    const status = (group: string, name: string) =>
      report.checks.find((check) => check.group === group && check.name === name)?.status;
    for (const [group, name] of [
      ['daemon', 'home'],
      ['daemon', 'files'],
      ['daemon', 'running'],
      ['daemon', 'version'],
      ['browsers', 'found'],
      ['extension', 'trusted-ids'],
      ['extension', 'paired'],
      ['extension', 'connected'],
      ['extension', 'version'],
      ['host', 'copy'],
      ['host', 'registered-chromium'],
      ['terminal', 'program'],
    ] as const)
      expect(status(group, name), `${group}.${name}`).toBe('ok');
    expect(status('agent', 'provider')).toBe('warn');
    expect(
      report.checks.find((check) => check.name === 'version' && check.group === 'extension')?.detail,
    ).toContain(BPROXY_VERSION);

    // The extension's id, as chrome://extensions shows it, is trusted; and the text says all is well.
    const text = await machine.cli.run(['doctor', '--extension-id', DEFAULT_EXTENSION_ID], 60_000);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`ok   trusted-ids:`);
    expect(text.stdout).toMatch(/All is well \(1 warning, for optional parts\)\./);
  }, 90_000);
});
