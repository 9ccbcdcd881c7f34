/**
 * The secret store (BPROXY_HOME/secrets.json): each value sealed with AES-256-GCM under one key, its
 * name and origin bound in as associated data, so a value moved to another name or an origin edited
 * in the file no longer opens. The key lives in the OS keychain where one answers, else in
 * BPROXY_HOME/secrets.key (secret-keychain.ts). Both files are 0600 state files, read through the same
 * checks as the tokens (no symlink, ours, no access for group or others). Only the CLI's
 * `secret add|remove` writes here — a person's act; the daemon only reads a value to fill it.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SecretStoreSchema, type SecretStoreFile, type SealedSecret } from '@bproxy/protocol';
import { LifecycleError, isLifecycleError } from './errors';
import { checkStateHome } from './state-home';
import { readStateFile, readStateJson, writeStateFileAtomic } from './secure-file';
import { platformKeyStore, type KeyPlace, type Keychain, type KeySealer } from './secret-keychain';

export interface SecretPaths {
  readonly store: string;
  readonly keyFile: string;
}

export function secretPaths(home: string): SecretPaths {
  return { store: join(home, 'secrets.json'), keyFile: join(home, 'secrets.key') };
}

/** Why the store could not be used: `unsafe` (a file failed its checks), `damaged`, or `key` (missing or wrong). */
export class SecretStoreError extends Error {
  override readonly name = 'SecretStoreError';
  constructor(
    readonly kind: 'unsafe' | 'damaged' | 'key',
    message: string,
  ) {
    super(message);
  }
}

export interface SecretStoreOptions {
  /** The keychain (or DPAPI sealer) to try; null: the key file only. Default: this platform's. */
  readonly keyStore?: Keychain | KeySealer | null;
}

export interface SecretListing {
  name: string;
  origin: string;
  added: string;
}

const AAD = (name: string, origin: string) => Buffer.from(`bproxy secret v1\0${name}\0${origin}`, 'utf8');

function readStore(paths: SecretPaths): SecretStoreFile | null {
  let read: SecretStoreFile | null | 'invalid';
  try {
    read = readStateJson(paths.store, SecretStoreSchema);
  } catch (error) {
    if (isLifecycleError(error)) throw new SecretStoreError('unsafe', error.message);
    throw error;
  }
  if (read === 'invalid')
    throw new SecretStoreError(
      'damaged',
      `${paths.store} is not a bproxy secret store; remove it and add the secrets again`,
    );
  return read;
}

function keyBytes(base64: string, where: string): Buffer {
  const key = Buffer.from(base64, 'base64');
  if (key.length !== 32) throw new SecretStoreError('key', `the key in ${where} is not a 32-byte key`);
  return key;
}

function readKeyFile(paths: SecretPaths): string | null {
  try {
    return readStateFile(paths.keyFile)?.trim() ?? null;
  } catch (error) {
    if (isLifecycleError(error)) throw new SecretStoreError('unsafe', error.message);
    throw error;
  }
}

/** The store's key, from the place the store says holds it. */
function loadKey(paths: SecretPaths, place: KeyPlace, options: SecretStoreOptions, home: string): Buffer {
  if (place === 'file') {
    const key = readKeyFile(paths);
    if (key === null) throw new SecretStoreError('key', `the store's key file ${paths.keyFile} is missing`);
    return keyBytes(key, paths.keyFile);
  }
  const keyStore = options.keyStore === undefined ? platformKeyStore(home) : options.keyStore;
  if (keyStore === null || keyStore.place !== place)
    throw new SecretStoreError('key', `the store's key is in ${place}, which this system does not offer`);
  if ('open' in keyStore) {
    const sealed = readKeyFile(paths);
    const key = sealed === null ? null : keyStore.open(sealed);
    if (key === null)
      throw new SecretStoreError('key', `the key file ${paths.keyFile} could not be opened by DPAPI`);
    return keyBytes(key, 'DPAPI');
  }
  const key = keyStore.lookup();
  if (key === null)
    throw new SecretStoreError(
      'key',
      `the store's key could not be read from ${place} (is the keyring unlocked?)`,
    );
  return keyBytes(key, place);
}

/**
 * A new key, kept in the keychain when it takes it and gives it back, else in the key file (0600).
 * `tried` says why a keychain was passed over, for `secret add` and doctor to tell.
 */
function newKey(
  paths: SecretPaths,
  options: SecretStoreOptions,
  home: string,
): { key: Buffer; place: KeyPlace; tried: string | null } {
  const key = randomBytes(32);
  const base64 = key.toString('base64');
  const keyStore = options.keyStore === undefined ? platformKeyStore(home) : options.keyStore;
  let tried: string | null = null;
  if (keyStore !== null && 'seal' in keyStore) {
    const sealed = keyStore.seal(base64);
    if (sealed !== null && keyStore.open(sealed) === base64) {
      writeStateFileAtomic(paths.keyFile, `${sealed}\n`);
      return { key, place: 'dpapi', tried };
    }
    tried = 'DPAPI did not answer';
  } else if (keyStore !== null) {
    if (keyStore.store(base64) && keyStore.lookup() === base64) return { key, place: keyStore.place, tried };
    tried = `${keyStore.place} did not answer (not installed, or no keyring unlocked)`;
  }
  writeStateFileAtomic(paths.keyFile, `${base64}\n`);
  return { key, place: 'file', tried };
}

function seal(key: Buffer, name: string, origin: string, value: string): SealedSecret {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(AAD(name, origin));
  const data = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return {
    origin,
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    data: data.toString('base64'),
    added: new Date().toISOString(),
  };
}

function open(key: Buffer, name: string, sealed: SealedSecret): string {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
    decipher.setAAD(AAD(name, sealed.origin));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    throw new SecretStoreError(
      'damaged',
      `secret ${name} did not verify: the store was changed or its key is not the one it was sealed with; add it again`,
    );
  }
}

function ensureHome(home: string): void {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  try {
    checkStateHome(home);
  } catch (error) {
    if (error instanceof LifecycleError) throw new SecretStoreError('unsafe', error.message);
    throw error;
  }
}

/** Adds (or replaces) a secret; answers where the key is kept and why a keychain was passed over. */
export function addSecret(
  home: string,
  name: string,
  origin: string,
  value: string,
  options: SecretStoreOptions = {},
): { place: KeyPlace; tried: string | null } {
  ensureHome(home);
  const paths = secretPaths(home);
  const store = readStore(paths);
  let key: Buffer;
  let place: KeyPlace;
  let tried: string | null = null;
  if (store === null) ({ key, place, tried } = newKey(paths, options, home));
  else {
    place = store.key;
    key = loadKey(paths, place, options, home);
  }
  const secrets = { ...(store?.secrets ?? {}), [name]: seal(key, name, origin, value) };
  const next: SecretStoreFile = { version: 1, key: place, secrets };
  writeStateFileAtomic(paths.store, `${JSON.stringify(next, null, 2)}\n`);
  return { place, tried };
}

/** The names and origins of the secrets, never a value; empty when there is no store. */
export function listSecrets(home: string): SecretListing[] {
  const store = readStore(secretPaths(home));
  if (store === null) return [];
  return Object.entries(store.secrets)
    .map(([name, s]) => ({ name, origin: s.origin, added: s.added }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Removes a secret; false when there was none of that name. */
export function removeSecret(home: string, name: string): boolean {
  const paths = secretPaths(home);
  const store = readStore(paths);
  if (store === null || !Object.hasOwn(store.secrets, name)) return false;
  const secrets = Object.fromEntries(Object.entries(store.secrets).filter(([n]) => n !== name));
  writeStateFileAtomic(paths.store, `${JSON.stringify({ ...store, secrets }, null, 2)}\n`);
  return true;
}

/** A secret's origin and value, or null when no secret has that name. Throws SecretStoreError. */
export function readSecret(
  home: string,
  name: string,
  options: SecretStoreOptions = {},
): { origin: string; value: string } | null {
  const paths = secretPaths(home);
  const store = readStore(paths);
  if (store === null || !Object.hasOwn(store.secrets, name)) return null;
  const sealed = store.secrets[name];
  if (sealed === undefined) return null;
  const key = loadKey(paths, store.key, options, home);
  return { origin: sealed.origin, value: open(key, name, sealed) };
}

/** Where the store's key is kept (null: no store yet), for doctor; throws SecretStoreError like the rest. */
export function secretKeyPlace(home: string): { place: KeyPlace; count: number } | null {
  const store = readStore(secretPaths(home));
  return store === null ? null : { place: store.key, count: Object.keys(store.secrets).length };
}

/**
 * For doctor: where the key is and whether every secret opens with it (the values are opened and
 * dropped, never returned); null when there is no store. Throws SecretStoreError on the first problem.
 */
export function checkSecretStore(
  home: string,
  options: SecretStoreOptions = {},
): { place: KeyPlace; count: number } | null {
  const paths = secretPaths(home);
  const store = readStore(paths);
  if (store === null) return null;
  const entries = Object.entries(store.secrets);
  if (entries.length > 0) {
    const key = loadKey(paths, store.key, options, home);
    for (const [name, sealed] of entries) open(key, name, sealed);
  }
  return { place: store.key, count: entries.length };
}
