/** Wire version spoken between the daemon and its drivers. Bumped on any breaking change to a WS message. */
export const PROTOCOL_VERSION = 2;

/** The product version, reported by `bproxy service status` and `debug.status`. */
export const BPROXY_VERSION = '0.1.0';

/** Default TCP port of the daemon on 127.0.0.1. */
export const DEFAULT_PORT = 9615;

/**
 * The id Chrome derives from the `key` in packages/extension/manifest.json (the development id, the
 * one "Load unpacked" gives the folder `bproxy extension path` prints). Always trusted; other ids are
 * added to BPROXY_HOME/extensions.json with `--extension-id` (see @bproxy/client/lifecycle).
 */
export const DEFAULT_EXTENSION_ID = 'oajmbecmcoogehkeimcopdfcilgnicbm';

/** The Chrome Web Store id, always trusted once the extension is published there; null until then. */
export const STORE_EXTENSION_ID: string | null = null;

/** The WebSocket subprotocol the daemon negotiates; the auth token travels as a second, never echoed, entry. */
export const WS_SUBPROTOCOL = 'bproxy.v1';
export const WS_AUTH_PREFIX = 'auth.';

/** Deadlines further out than this are refused rather than clamped. */
export const MAX_DEADLINE_MS = 30 * 60_000;
/** A client's default deadline for one request. */
export const DEFAULT_TIMEOUT_MS = 30_000;
