/**
 * The native host's checks: its copy in BPROXY_HOME/host/<version>/ is this bproxy's version; per
 * browser, the registration (the manifest present, pointing at this install's launcher, which runs the
 * copy, nothing in the chain writable by others — `bproxy host status`'s checks) and the host actually
 * answering: its launcher is run once as the browser runs it, hello is sent and the welcome's version
 * checked against this bproxy's. Running the launcher changes nothing: the host exits when its stdin
 * closes.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { hostFiles, hostStatus, readRecord, registrationContext } from '@bproxy/native-host/registration';
import { BPROXY_VERSION, compareVersions } from '@bproxy/protocol';
import { type Check, type DoctorContext, describeError, fail, ok } from './checks';

const SETUP = '`bproxy setup`';

function copyCheck(record: ReturnType<typeof readRecord>, dir: string): Check {
  if (record === null)
    return fail(
      'host',
      'copy',
      `the native host is not installed for this BPROXY_HOME (no ${join(dir, 'install.json')})`,
      SETUP,
    );
  const copy = record.copy;
  if (copy === undefined)
    return fail(
      'host',
      'copy',
      `the native host was installed by an older bproxy, before it ran from its own copy`,
      SETUP,
    );
  if (copy.version !== BPROXY_VERSION)
    return fail(
      'host',
      'copy',
      `the native host installed is version ${copy.version} (${copy.dir}), this bproxy is ${BPROXY_VERSION}`,
      compareVersions(copy.version, BPROXY_VERSION) < 0 ? SETUP : `update bproxy, then ${SETUP}`,
    );
  if (!existsSync(join(copy.dir, 'native-host.mjs')))
    return fail('host', 'copy', `the native host's copy ${copy.dir} is missing its bundle`, SETUP);
  if (record.bundle !== join(copy.dir, 'native-host.mjs'))
    return fail('host', 'copy', `the launcher runs ${record.bundle}, not the copy in ${copy.dir}`, SETUP);
  return ok('host', 'copy', `version ${copy.version} in ${copy.dir}`);
}

export async function hostChecks(context: DoctorContext): Promise<Check[]> {
  let registration: ReturnType<typeof registrationContext>;
  try {
    registration = registrationContext({ env: context.env });
  } catch (error) {
    return [
      fail('host', 'registered', describeError(error), 'the native host works on Linux, macOS and Windows'),
    ];
  }
  const files = hostFiles(registration);
  const checks = [copyCheck(readRecord(files.record), files.dir)];
  let status: Awaited<ReturnType<typeof hostStatus>>;
  try {
    status = await hostStatus({ context: registration });
  } catch (error) {
    checks.push(fail('host', 'registered', describeError(error), SETUP));
    return checks;
  }
  const registered = status.browsers.filter((browser) => browser.registered);
  if (registered.length === 0) {
    const installed = status.browsers.filter((browser) => browser.installed).map((browser) => browser.name);
    checks.push(
      fail(
        'host',
        'registered',
        `com.bproxy.host is registered with no browser${installed.length > 0 ? ` (found: ${installed.join(', ')})` : ''}`,
        SETUP,
      ),
    );
    return checks;
  }
  for (const browser of registered) {
    const name = `registered-${browser.browser}`;
    if (browser.problems.length > 0) {
      checks.push(
        fail('host', name, `${browser.name} (${browser.location}): ${browser.problems.join('; ')}`, SETUP),
      );
      continue;
    }
    const answers = browser.answers;
    if (answers === null)
      checks.push(fail('host', name, `${browser.name}: the host was not run (${browser.location})`, SETUP));
    else if (!answers.ok) checks.push(fail('host', name, `${browser.name}: ${answers.reason}`, SETUP));
    else
      checks.push(
        ok(
          'host',
          name,
          `${browser.name}: ${browser.location} → ${browser.launcher ?? '?'}; answers hello, version ${answers.hostVersion} (${answers.ms} ms)`,
        ),
      );
  }
  return checks;
}
