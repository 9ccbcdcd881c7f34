/**
 * The browsers' check: the Chromium-family browsers this user has — the native host's registration
 * table, per platform (Chrome, Chromium, Edge, Brave, Vivaldi and their channels: a profile folder or
 * the program in its usual place) — and CHROME_PATH, when set, which the daemon starts for headless
 * sessions before looking in those places.
 */
import {
  BROWSERS,
  isExecutableFile,
  isInstalled,
  registrationContext,
} from '@bproxy/native-host/registration';
import { type Check, type DoctorContext, describeError, fail, ok } from './checks';

export function browserChecks(context: DoctorContext): Check[] {
  let installed: string[];
  try {
    const registration = registrationContext({ env: context.env });
    installed = BROWSERS.filter((spec) => isInstalled(registration, spec)).map((spec) => spec.name);
  } catch (error) {
    installed = [];
    void describeError(error);
  }
  const chromePath = context.env.CHROME_PATH;
  const checks: Check[] = [];
  if (chromePath !== undefined && chromePath !== '' && !isExecutableFile(chromePath))
    checks.push(
      fail(
        'browsers',
        'chrome-path',
        `CHROME_PATH is ${chromePath}, which is not a program you can run`,
        'set CHROME_PATH to the browser binary, or unset it',
      ),
    );
  if (installed.length === 0)
    checks.push(
      fail(
        'browsers',
        'found',
        'no Chrome, Chromium, Edge or Brave found for this user',
        'install one (Chrome, Chromium, Edge or Brave) and run it once, then `bproxy setup`',
      ),
    );
  else checks.push(ok('browsers', 'found', installed.join(', ')));
  return checks;
}
