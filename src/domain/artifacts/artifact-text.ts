import { z } from 'zod';

/**
 * A trimmed, non-empty string with an upper bound, with messages a model can act on.
 * Bounds keep one artifact from eating the `regras_negocio` layer's budget.
 */
export function requiredText(maxCharacters: number): z.ZodString {
  return z
    .string({ error: 'must be a string' })
    .trim()
    .min(1, 'must not be empty')
    .max(maxCharacters, `must be at most ${maxCharacters} characters`);
}

/** A list of `requiredText` items with bounds on its length. */
export function textList(options: {
  readonly maxItems: number;
  readonly maxCharacters: number;
  readonly minItems?: number;
}): z.ZodArray<z.ZodString> {
  const minItems = options.minItems ?? 0;
  return z
    .array(requiredText(options.maxCharacters), { error: 'must be a list of strings' })
    .min(minItems, `must have at least ${minItems} item${minItems === 1 ? '' : 's'}`)
    .max(options.maxItems, `must have at most ${options.maxItems} items`);
}
