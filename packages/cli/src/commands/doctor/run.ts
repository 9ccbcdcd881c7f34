/**
 * `bproxy doctor`'s run: every check group in turn (the daemon first: the extension's checks read
 * its answer), then the report — text for people, or with --json the protocol's DoctorReport for
 * tools — and the exit code: 0 when no check failed (warnings do not fail it), else 1.
 */
import { resolveHome, statePaths } from '@bproxy/client/lifecycle';
import { BPROXY_VERSION, DoctorReportSchema, ExtensionIdSchema, type DoctorReport } from '@bproxy/protocol';
import { EXIT, usageError } from '../../cli-error';
import { printJson, writeText } from '../../output';
import { agentChecks } from './agent';
import { browserChecks } from './browsers';
import type { Check, DoctorContext } from './checks';
import { daemonChecks } from './daemon';
import { extensionChecks } from './extension';
import { hostChecks } from './host';
import { terminalChecks } from './terminal';

export interface DoctorFlags {
  readonly json?: boolean;
  readonly extensionId?: string;
}

export async function doctorReport(
  env: NodeJS.ProcessEnv,
  extensionId: string | null,
): Promise<DoctorReport> {
  const home = resolveHome(env);
  const context: DoctorContext = { env, home, paths: statePaths(home), extensionId };
  const daemon = await daemonChecks(context);
  const checks: Check[] = [
    ...daemon.checks,
    ...browserChecks(context),
    ...extensionChecks(context, daemon.view),
    ...(await hostChecks(context)),
    ...(await agentChecks(context)),
    ...terminalChecks(context),
  ];
  return DoctorReportSchema.parse({
    ok: checks.every((check) => check.status !== 'fail'),
    version: BPROXY_VERSION,
    home,
    checks,
  });
}

const MARK = { ok: 'ok  ', warn: 'warn', fail: 'FAIL', skip: 'skip' } as const;

export function reportText(report: DoctorReport): string {
  const lines = [`bproxy doctor ${report.version} — BPROXY_HOME ${report.home}`];
  let group = '';
  for (const check of report.checks) {
    if (check.group !== group) {
      group = check.group;
      lines.push('', `${group}:`);
    }
    lines.push(`  ${MARK[check.status]} ${check.name}: ${check.detail}`);
    if (check.fix !== undefined && check.status !== 'ok') lines.push(`       fix: ${check.fix}`);
  }
  const failed = report.checks.filter((check) => check.status === 'fail').length;
  const warned = report.checks.filter((check) => check.status === 'warn').length;
  lines.push(
    '',
    failed === 0
      ? `All is well${warned > 0 ? ` (${warned} warning${warned === 1 ? '' : 's'}, for optional parts)` : ''}.`
      : `${failed} problem${failed === 1 ? '' : 's'}${warned > 0 ? `, ${warned} warning${warned === 1 ? '' : 's'}` : ''}: run each fix above, then \`bproxy doctor\` again.`,
  );
  return `${lines.join('\n')}\n`;
}

export async function runDoctor(flags: DoctorFlags, env: NodeJS.ProcessEnv): Promise<void> {
  if (flags.extensionId !== undefined && !ExtensionIdSchema.safeParse(flags.extensionId).success)
    throw usageError(
      `--extension-id takes a Chrome extension id (32 letters a-p, as chrome://extensions shows it), got "${flags.extensionId.slice(0, 80)}"`,
    );
  const report = await doctorReport(env, flags.extensionId ?? null);
  if (flags.json === true) printJson(report, false);
  else writeText(reportText(report));
  if (!report.ok) process.exitCode = EXIT.failure;
}
