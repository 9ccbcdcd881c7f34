/**
 * `fill --secret NAME`: the daemon looks the value up in the user's secret store and hands the driver
 * the value with the origin it may only go to (the page checks the field's frame against it). From
 * then on every answer the daemon sends masks that value (maskAnswer, applied to every outcome in
 * http/command.ts), whatever the page echoes back: a text field's value in a snapshot, an error.
 */
import { maskSecrets } from '@bproxy/protocol';
import type { DriverOutcome } from '../browsers/forwarded-requests';
import { failed } from './outcome';

/** A secret's origin and value by name (null: no such secret); throws when the store cannot be read. */
export type SecretReader = (name: string) => { origin: string; value: string } | null;

/** The daemon's secrets: how to read one, and the values filled so far (masked in every answer). */
export interface DaemonSecrets {
  readonly read: SecretReader;
  readonly used: string[];
}

export const NO_SECRETS: SecretReader = () => null;

/**
 * The params to forward for a fill by secret (`secret` replaced by the value and its origin), a failed
 * outcome (unknown name, unreadable store), or null for a fill by value.
 */
export function secretFillParams(
  secrets: DaemonSecrets,
  params: Record<string, unknown>,
): { params: Record<string, unknown> } | DriverOutcome | null {
  const { secret: name, ...rest } = params;
  if (typeof name !== 'string') return null;
  let found: ReturnType<SecretReader>;
  try {
    found = secrets.read(name);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return failed('SECRET_STORE_UNREADABLE', `secret ${name} could not be read: ${why}`);
  }
  if (found === null)
    return failed(
      'SECRET_NOT_FOUND',
      `no secret named ${name}; the user adds one with: bproxy secret add ${name} --origin ORIGIN`,
    );
  // Masked from now on, before the value goes anywhere: whatever comes back carries it masked.
  if (!secrets.used.includes(found.value)) secrets.used.push(found.value);
  return { params: { ...rest, value: found.value, secretOrigin: found.origin } };
}

/** The outcome as the agent may see it: every value filled from a secret masked. */
export function maskAnswer(secrets: DaemonSecrets, outcome: DriverOutcome): DriverOutcome {
  return maskSecrets(outcome, secrets.used);
}
