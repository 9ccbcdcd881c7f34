/**
 * The bridge's configuration. Tools start the bridge with Chrome's switches only, so everything about
 * the real browser comes from the environment (an MCP client's `env` block passes it): every variable
 * is parsed, never coerced, and a value we do not understand is an error naming the variable.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

export type Env = Readonly<Record<string, string | undefined>>;

/** Where the real browser is: on this machine, on the Windows side of WSL, or at a DevTools URL. */
export type DownstreamKind = 'local' | 'wsl' | 'remote';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface BridgeConfig {
  readonly downstream: DownstreamKind;
  /** The browser binary to launch (local: found like the CDP driver does; wsl: Chrome's usual path). */
  readonly executablePath: string | undefined;
  /** The profile that identifies "the" browser; overrides the tool's own --user-data-dir. */
  readonly userDataDir: string | undefined;
  /** remote: a ws(s):// DevTools URL or an http(s):// endpoint. */
  readonly cdpUrl: string | undefined;
  /** Overrides the tool's --headless (true/false); undefined: as the tool asked. */
  readonly headless: boolean | undefined;
  /** The endpoint's secret; undefined: a fresh random one per run. */
  readonly token: string | undefined;
  readonly powershell: string;
  /** The address Windows Chrome's DevTools port is reached at from WSL (mirrored networking: loopback). */
  readonly wslHost: string;
  /** How long a request waits for a lost browser to come back before it is answered with an error. */
  readonly queueTimeoutMs: number;
  /** How long a launch may take before its DevTools endpoint answers. */
  readonly launchTimeoutMs: number;
  readonly home: string;
  readonly logLevel: LogLevel;
}

export class BridgeConfigError extends Error {
  override readonly name = 'BridgeConfigError';
}

const DEFAULT_WINDOWS_CHROME = 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe';

/** WSL's kernel says so in its release string (WSL 1: "Microsoft", WSL 2: "microsoft-standard"). */
export function runningInWsl(): boolean {
  try {
    return /microsoft/i.test(readFileSync('/proc/sys/kernel/osrelease', 'utf8'));
  } catch {
    return false;
  }
}

function set(raw: string | undefined): raw is string {
  return raw !== undefined && raw !== '';
}

function parseKind(env: Env, inWsl: boolean): DownstreamKind {
  const raw = env.BPROXY_BRIDGE_BROWSER;
  if (!set(raw)) {
    if (set(env.BPROXY_BRIDGE_CDP_URL)) return 'remote';
    return inWsl ? 'wsl' : 'local';
  }
  if (raw === 'local' || raw === 'wsl' || raw === 'remote') return raw;
  throw new BridgeConfigError(`BPROXY_BRIDGE_BROWSER must be local, wsl or remote, got "${raw}"`);
}

function parseBoolean(name: string, raw: string | undefined): boolean | undefined {
  if (!set(raw)) return undefined;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new BridgeConfigError(`${name} must be true or false (or 1 / 0), got "${raw}"`);
}

function parseMs(name: string, raw: string | undefined, fallback: number): number {
  if (!set(raw)) return fallback;
  if (!/^[0-9]{1,7}$/.test(raw) || Number(raw) < 100) {
    throw new BridgeConfigError(`${name} must be a number of milliseconds from 100 to 9999999, got "${raw}"`);
  }
  return Number(raw);
}

function parseToken(raw: string | undefined): string | undefined {
  if (!set(raw)) return undefined;
  // Long and URL-safe: it is part of the WebSocket path and of an Authorization header.
  if (!/^[A-Za-z0-9_-]{32,256}$/.test(raw)) {
    throw new BridgeConfigError(
      'BPROXY_BRIDGE_TOKEN must be 32 to 256 characters of A-Z, a-z, 0-9, _ and - (its value is not shown)',
    );
  }
  return raw;
}

function parseCdpUrl(raw: string | undefined): string | undefined {
  if (!set(raw)) return undefined;
  let protocol: string;
  try {
    protocol = new URL(raw).protocol;
  } catch {
    throw new BridgeConfigError('BPROXY_BRIDGE_CDP_URL must be a ws://, wss://, http:// or https:// URL');
  }
  if (!['ws:', 'wss:', 'http:', 'https:'].includes(protocol)) {
    throw new BridgeConfigError(
      `BPROXY_BRIDGE_CDP_URL must be a ws://, wss://, http:// or https:// URL, got ${protocol}`,
    );
  }
  return raw;
}

function parseLogLevel(raw: string | undefined): LogLevel {
  if (!set(raw)) return 'info';
  const level = LOG_LEVELS.find((name) => name === raw);
  if (level === undefined) {
    throw new BridgeConfigError(`BPROXY_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  }
  return level;
}

function resolveHome(env: Env): string {
  const raw = env.BPROXY_HOME;
  if (!set(raw)) return join(homedir(), '.bproxy');
  return isAbsolute(raw) ? raw : resolve(raw);
}

export function readBridgeConfig(env: Env, inWsl: boolean = runningInWsl()): BridgeConfig {
  const downstream = parseKind(env, inWsl);
  const cdpUrl = parseCdpUrl(env.BPROXY_BRIDGE_CDP_URL);
  if (downstream === 'remote' && cdpUrl === undefined) {
    throw new BridgeConfigError('BPROXY_BRIDGE_BROWSER=remote needs BPROXY_BRIDGE_CDP_URL');
  }
  const chrome = env.BPROXY_BRIDGE_CHROME;
  return {
    downstream,
    executablePath: set(chrome) ? chrome : downstream === 'wsl' ? DEFAULT_WINDOWS_CHROME : undefined,
    userDataDir: set(env.BPROXY_BRIDGE_USER_DATA_DIR) ? env.BPROXY_BRIDGE_USER_DATA_DIR : undefined,
    cdpUrl,
    headless: parseBoolean('BPROXY_BRIDGE_HEADLESS', env.BPROXY_BRIDGE_HEADLESS),
    token: parseToken(env.BPROXY_BRIDGE_TOKEN),
    powershell: set(env.BPROXY_BRIDGE_POWERSHELL) ? env.BPROXY_BRIDGE_POWERSHELL : 'powershell.exe',
    wslHost: set(env.BPROXY_BRIDGE_WSL_HOST) ? env.BPROXY_BRIDGE_WSL_HOST : '127.0.0.1',
    queueTimeoutMs: parseMs('BPROXY_BRIDGE_QUEUE_TIMEOUT_MS', env.BPROXY_BRIDGE_QUEUE_TIMEOUT_MS, 30_000),
    launchTimeoutMs: parseMs('BPROXY_BRIDGE_LAUNCH_TIMEOUT_MS', env.BPROXY_BRIDGE_LAUNCH_TIMEOUT_MS, 30_000),
    home: resolveHome(env),
    logLevel: parseLogLevel(env.BPROXY_LOG_LEVEL),
  };
}
