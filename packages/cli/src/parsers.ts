/**
 * Turning argv strings into params without guessing: element arguments are a handle or a selector but
 * never both (numbers: readInt in actions/grammar.ts). Failures are usage errors (exit 2).
 */
import { usageError } from './cli-error';

const HANDLE = /^(el|ln)[1-9][0-9]{0,6}$/;

export function isElementHandle(value: string): boolean {
  return HANDLE.test(value);
}

export type TargetParam = string | { selector: string };

/** An element given as a handle argument or as --selector; `required` says whether one must be given. */
export function elementTarget(
  handle: string | undefined,
  selector: string | undefined,
  required: true,
): TargetParam;
export function elementTarget(
  handle: string | undefined,
  selector: string | undefined,
  required: boolean,
): TargetParam | undefined;
export function elementTarget(
  handle: string | undefined,
  selector: string | undefined,
  required: boolean,
): TargetParam | undefined {
  if (handle !== undefined && selector !== undefined)
    throw usageError('give an element handle or --selector, not both');
  if (selector !== undefined) return { selector };
  if (handle !== undefined) {
    if (!isElementHandle(handle)) {
      throw usageError(
        `expected an element handle like el3 or ln2, got "${handle}"`,
        'Use --selector CSS for a CSS selector',
      );
    }
    return handle;
  }
  if (required) throw usageError('give an element handle (el3, ln2) or --selector CSS');
  return undefined;
}

/** Drops undefined entries so that params carry only what the user gave. */
export function compact(params: Record<string, unknown>): Record<string, unknown> {
  const given: Record<string, unknown> = {};
  for (const key in params) if (params[key] !== undefined) given[key] = params[key];
  return given;
}
