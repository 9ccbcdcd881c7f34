/**
 * Turning argv strings into params without guessing: numbers must be plain integers in range,
 * element arguments are a handle or a selector but never both. Failures are usage errors (exit 2).
 */
import { InvalidArgumentError } from 'commander';
import { usageError } from './cli-error';

/** A commander argument parser for an integer in [min, max]; "12px", "1e3" or "3.5" are refused. */
export function intOption(name: string, min: number, max: number): (raw: string) => number {
  return (raw) => {
    if (!/^-?[0-9]+$/.test(raw)) throw new InvalidArgumentError(`${name} must be an integer, got "${raw}"`);
    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      throw new InvalidArgumentError(`${name} must be between ${min} and ${max}, got ${raw}`);
    }
    return value;
  };
}

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
  return Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined));
}
