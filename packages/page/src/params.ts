/**
 * Reading forwarded params without zod. Drivers validate them against the protocol schemas before
 * calling the page, so these readers only guard the types the handlers rely on.
 */
import { PageError } from './errors';

export type Params = Readonly<Record<string, unknown>>;

/** A resolved element target as the daemon forwards it. */
export interface ElementTarget {
  readonly ref?: string;
  readonly selector?: string;
}

export function asParams(value: unknown): Params {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new PageError('BAD_REQUEST', 'params: expected an object');
  return value as Params;
}

function bad(key: string, expected: string, got: unknown): PageError {
  return new PageError(
    'BAD_REQUEST',
    `params.${key}: expected ${expected}, got ${JSON.stringify(got) ?? typeof got}`,
  );
}

export function optString(p: Params, key: string): string | undefined {
  const v = p[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw bad(key, 'a string', v);
  return v;
}

export function reqString(p: Params, key: string): string {
  const v = optString(p, key);
  if (v === undefined) throw bad(key, 'a string', v);
  return v;
}

export function optNumber(p: Params, key: string): number | undefined {
  const v = p[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw bad(key, 'a number', v);
  return v;
}

export function optBoolean(p: Params, key: string): boolean | undefined {
  const v = p[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean') throw bad(key, 'a boolean', v);
  return v;
}

export function optStringArray(p: Params, key: string): string[] | undefined {
  const v = p[key];
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || !v.every((x): x is string => typeof x === 'string'))
    throw bad(key, 'an array of strings', v);
  return v;
}

export function optTarget(p: Params, key = 'target'): ElementTarget | undefined {
  const v = p[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw bad(key, 'an element target { ref?, selector? }', v);
  const t = v as Record<string, unknown>;
  const ref = t['ref'];
  const selector = t['selector'];
  if (ref !== undefined && typeof ref !== 'string') throw bad(`${key}.ref`, 'a string', ref);
  if (selector !== undefined && typeof selector !== 'string')
    throw bad(`${key}.selector`, 'a string', selector);
  if (ref === undefined && selector === undefined) throw bad(key, 'a ref or a selector', v);
  return { ...(ref === undefined ? {} : { ref }), ...(selector === undefined ? {} : { selector }) };
}

export function reqTarget(p: Params, key = 'target'): ElementTarget {
  const t = optTarget(p, key);
  if (t === undefined) throw bad(key, 'an element target { ref?, selector? }', undefined);
  return t;
}
