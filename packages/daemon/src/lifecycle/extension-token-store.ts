/**
 * ExtensionTokenStore on BPROXY_HOME/extension-token: the single active extension token, persisted
 * (atomically, 0600) before set() resolves so that a daemon restart keeps the extension paired.
 * The file is read with the same owner/mode checks as the daemon token; an unsafe one stops the start.
 */
import type { ExtensionTokenStore } from '../server-options';
import { LifecycleError, readStateFile, writeStateFileAtomic } from '@bproxy/client/lifecycle';

/** Printable ASCII without spaces: the server mints base64url tokens; we only refuse what cannot be one. */
const TOKEN_PATTERN = /^[\x21-\x7e]{16,1024}$/;

export class FileExtensionTokenStore implements ExtensionTokenStore {
  private constructor(
    private readonly path: string,
    private token: string | null,
  ) {}

  /** Loads the persisted token (null when never paired). Throws LifecycleError when the file is unsafe. */
  static load(path: string): FileExtensionTokenStore {
    const raw = readStateFile(path);
    if (raw === null) return new FileExtensionTokenStore(path, null);
    const token = raw.trim();
    if (!TOKEN_PATTERN.test(token)) {
      throw new LifecycleError(
        'unsafe-state',
        `refusing to use ${path}: it does not hold an extension token (remove it and pair the extension again)`,
      );
    }
    return new FileExtensionTokenStore(path, token);
  }

  get(): string | null {
    return this.token;
  }

  async set(token: string): Promise<void> {
    if (!TOKEN_PATTERN.test(token))
      throw new Error('extension token must be 16-1024 printable characters without spaces');
    // Synchronous on purpose: a pairing claim is rare, and the write must be durable before we answer.
    writeStateFileAtomic(this.path, `${token}\n`);
    this.token = token;
  }
}
