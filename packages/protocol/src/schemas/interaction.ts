/** Interaction actions: click, hover, fill, type, press, select, scroll, wait, dialog. */
import { z } from 'zod';
import { ElementTargetSchema, TargetInputSchema } from '../targets';
import { SecretNameSchema } from '../secrets';
import { DriverEffectsSchema, EffectsSchema, ScopeSchema } from './common';
import { DiffParamShape } from './diff';

// --- interaction -------------------------------------------------------------------------------------

export const ClickParams = z.strictObject({
  target: TargetInputSchema,
  button: z.enum(['left', 'middle', 'right']).optional(),
  clickCount: z.number().int().min(1).max(3).optional(),
  ...DiffParamShape,
});
export const HoverParams = z.strictObject({ target: TargetInputSchema });
export const FillParams = z
  .strictObject({
    target: TargetInputSchema,
    value: z.string().max(100_000).optional(),
    secret: SecretNameSchema.optional(),
    ...DiffParamShape,
  })
  .refine((p) => (p.value === undefined) !== (p.secret === undefined), 'give value or secret, exactly one');
/**
 * What a driver gets for fill: the value itself (the daemon looked a secret up), and for a secret the
 * origin it may only go to — the page checks the field's frame against it before it writes anything.
 */
export const ForwardedFillParams = z.strictObject({
  target: ElementTargetSchema,
  value: z.string().max(100_000),
  secretOrigin: z.string().min(1).max(300).optional(),
  ...DiffParamShape,
});
export const TypeParams = z.strictObject({
  text: z.string().min(1).max(10_000),
  target: ScopeSchema,
  ...DiffParamShape,
});
export const PressParams = z.strictObject({
  key: z
    .string()
    .min(1)
    .max(64)
    .regex(/^((Control|Shift|Alt|Meta)\+)*[^+]+$|^\+$/, 'expected a key like Enter, a or Control+A'),
  target: ScopeSchema,
  ...DiffParamShape,
});
export const SelectParams = z.strictObject({
  target: TargetInputSchema,
  values: z.array(z.string().max(1000)).min(1).max(100),
  ...DiffParamShape,
});
export const SelectResult = EffectsSchema.extend({ selected: z.array(z.string()) });
export const SelectDriverResult = DriverEffectsSchema.extend({ selected: z.array(z.string()) });
export const ScrollParams = z
  .strictObject({
    target: ScopeSchema,
    direction: z.enum(['up', 'down', 'left', 'right']).optional(),
    amount: z.number().int().min(1).max(100_000).optional(),
    to: z.enum(['top', 'bottom', 'element']).optional(),
  })
  .refine((p) => !(p.to !== undefined && p.direction !== undefined), 'give either direction or to, not both');
export const ScrollResult = z.strictObject({
  x: z.number(),
  y: z.number(),
  atTop: z.boolean(),
  atBottom: z.boolean(),
});

export const DialogParams = z.strictObject({
  accept: z.boolean(),
  promptText: z.string().max(10_000).optional(),
});
export const DialogResult = z.strictObject({ type: z.string(), message: z.string(), accepted: z.boolean() });
