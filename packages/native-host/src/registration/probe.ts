/**
 * Does the registered host actually start and answer? Runs the launcher the way a browser does — our
 * extension's origin as the first argument, a minimal environment (no PATH to find Node on), stdio
 * pipes — sends `hello` in this program's version and expects `welcome` in our native protocol version
 * and a version that works with ours (the protocol's rule: compatibility.ts), then closes stdin and
 * waits for the host to exit. A host of a version that does not is named, with `bproxy setup`. Bounded: a host that does not answer in time is killed and reported.
 */
import { spawn } from 'node:child_process';
import type { Env } from '@bproxy/client';
import {
  BPROXY_VERSION,
  NATIVE_MAX_TO_BROWSER,
  NATIVE_PROTOCOL_VERSION,
  NativeErrorSchema,
  NativeWelcomeSchema,
  compareVersions,
  versionsCompatible,
} from '@bproxy/protocol';
import { FrameDecoder, encodeFrame } from '../framing';
import type { RegistrationPlatform } from './context';

export type ProbeResult =
  | { readonly ok: true; readonly hostVersion: string; readonly protocolVersion: number; readonly ms: number }
  | { readonly ok: false; readonly reason: string };

/** Why a host of `hostVersion` does not work with this bproxy, and the fix; null when it does. */
export function hostVersionProblem(hostVersion: string, ours: string = BPROXY_VERSION): string | null {
  if (versionsCompatible(hostVersion, ours)) return null;
  return compareVersions(hostVersion, ours) < 0
    ? `the native host is version ${hostVersion}, older than this bproxy ${ours}, and they do not work together: run \`bproxy setup\``
    : `the native host is version ${hostVersion}, newer than this bproxy ${ours}, and they do not work together: update bproxy, then run \`bproxy setup\``;
}

export interface ProbeOptions {
  readonly platform: RegistrationPlatform;
  /** The user's home: browsers pass HOME, and an install without BPROXY_HOME relies on it. */
  readonly home: string;
  readonly env: Env;
  readonly timeoutMs?: number;
}

/** What a browser's environment can be counted on to hold. */
function browserLikeEnv(options: ProbeOptions): Record<string, string> {
  if (options.platform !== 'win32') return { HOME: options.home, PATH: '/usr/bin:/bin' };
  const env: Record<string, string> = {};
  for (const name of ['SystemRoot', 'ComSpec', 'USERPROFILE', 'LOCALAPPDATA', 'APPDATA', 'TEMP', 'TMP']) {
    const value = options.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

export function probeLauncher(launcher: string, origin: string, options: ProbeOptions): Promise<ProbeResult> {
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? 10_000;
  // A .bat runs through cmd.exe, as the browser runs it; quoting as Node's own shell mode does.
  const child =
    options.platform === 'win32'
      ? spawn(options.env.ComSpec ?? 'cmd.exe', ['/d', '/s', '/c', `""${launcher}" ${origin}"`], {
          env: browserLikeEnv(options),
          stdio: ['pipe', 'pipe', 'ignore'],
          windowsVerbatimArguments: true,
          windowsHide: true,
        })
      : spawn(launcher, [origin], { env: browserLikeEnv(options), stdio: ['pipe', 'pipe', 'ignore'] });

  return new Promise((resolve) => {
    let answer: ProbeResult | null = null;
    const done = (result: ProbeResult) => {
      answer ??= result;
    };
    const timer = setTimeout(() => {
      done({ ok: false, reason: `the host did not answer hello within ${timeoutMs / 1000} s` });
      child.kill('SIGKILL');
    }, timeoutMs);
    const decoder = new FrameDecoder(NATIVE_MAX_TO_BROWSER);
    child.stdout.on('data', (chunk: Buffer) => {
      for (const event of decoder.push(chunk)) {
        if (answer !== null) return;
        if (event.kind !== 'message') {
          done({ ok: false, reason: 'the host wrote something that is not a native messaging frame' });
          child.stdin.end();
          return;
        }
        const welcome = NativeWelcomeSchema.safeParse(event.value);
        const refusal = NativeErrorSchema.safeParse(event.value);
        if (refusal.success && refusal.data.code === 'VERSION_MISMATCH') {
          // Its message names its version beside ours (compatibility.ts words it); the fix is said
          // for this program, which installs the host, rather than for the extension it took us for.
          const named = /the native host (?:is version )?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)[: ]/.exec(
            refusal.data.message,
          )?.[1];
          done({
            ok: false,
            reason:
              (named === undefined ? null : hostVersionProblem(named)) ??
              `the native host refused bproxy ${BPROXY_VERSION}: ${refusal.data.message}`,
          });
        } else if (!welcome.success) {
          done({
            ok: false,
            reason: `the host answered hello with ${JSON.stringify(event.value).slice(0, 200)}`,
          });
        } else if (welcome.data.protocolVersion !== NATIVE_PROTOCOL_VERSION) {
          done({
            ok: false,
            reason: `the host speaks native protocol ${welcome.data.protocolVersion}, not ${NATIVE_PROTOCOL_VERSION}`,
          });
        } else if (hostVersionProblem(welcome.data.hostVersion) !== null) {
          done({ ok: false, reason: hostVersionProblem(welcome.data.hostVersion) ?? '' });
        } else {
          done({
            ok: true,
            hostVersion: welcome.data.hostVersion,
            protocolVersion: welcome.data.protocolVersion,
            ms: Math.round(performance.now() - started),
          });
        }
        // The browser closing the port: a healthy host exits at once.
        child.stdin.end();
      }
    });
    child.stdin.on('error', () => undefined);
    child.on('error', (error) => {
      clearTimeout(timer);
      done({ ok: false, reason: `cannot run ${launcher}: ${error.message}` });
      resolve(answer ?? { ok: false, reason: 'no answer' });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({ ok: false, reason: `the host exited (${signal ?? `code ${code}`}) without answering hello` });
      resolve(answer ?? { ok: false, reason: 'no answer' });
    });
    child.stdin.write(
      encodeFrame(
        JSON.stringify({
          type: 'hello',
          protocolVersion: NATIVE_PROTOCOL_VERSION,
          extensionVersion: BPROXY_VERSION,
        }),
      ),
    );
  });
}
