import { z } from 'zod';
import type { core } from 'zod';
import type { DeclarationProblemCode } from './declaration-problems.ts';

/** Counts characters as a person does (code points), so an emoji is one character, not two. */
export function characterCount(text: string): number {
  return Array.from(text).length;
}

/** Reports a domain rule as a zod issue that keeps its problem code (read back by `problemsFromZodIssues`). */
export function addRuleProblem<Value>(
  context: core.$RefinementCtx<Value>,
  code: DeclarationProblemCode,
  message: string,
  path: PropertyKey[] = [],
): void {
  context.addIssue({ code: 'custom', message, path, params: { code } });
}

/**
 * A rule on an array that runs even when some of its items are broken. Zod skips refinements after item
 * issues by default; reporting the list's own problem too lets the model fix everything in one turn.
 */
export function arrayRule(
  rule: (items: readonly unknown[], context: core.$RefinementCtx<unknown[]>) => void,
) {
  return z.superRefine<unknown[]>((items, context) => rule(items, context), {
    when: (payload) => Array.isArray(payload.value),
  });
}

/** An object refusing unknown fields with a message that lists the fields it accepts. */
export function strictObject<Shape extends core.$ZodLooseShape>(shape: Shape) {
  const allowed = Object.keys(shape).join(', ');
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((key) => `"${key}"`).join(', ')}; accepted fields: ${allowed}`
        : undefined,
  });
}

/** The bounds and problem codes of one free-text field. */
export type TextRule = {
  readonly field: string;
  readonly maxCharacters: number;
  readonly emptyCode: DeclarationProblemCode;
  readonly tooLongCode: DeclarationProblemCode;
};

/**
 * Required free text: trimmed, not blank, at most `maxCharacters` characters. The bounds are also written
 * into the JSON Schema (`minLength`/`maxLength`) so the model sees them in the tool definition.
 */
export function requiredText(rule: TextRule) {
  return z
    .string()
    .trim()
    .check(
      z.superRefine<string>((text, context) => {
        if (text.length === 0) {
          addRuleProblem(context, rule.emptyCode, `${rule.field} must not be empty`);
        } else if (characterCount(text) > rule.maxCharacters) {
          addRuleProblem(
            context,
            rule.tooLongCode,
            `${rule.field} has ${characterCount(text)} characters; the limit is ${rule.maxCharacters}`,
          );
        }
      }),
    )
    .meta({ minLength: 1, maxLength: rule.maxCharacters });
}

/** Optional free text: trimmed, at most `maxCharacters`. */
export function optionalText(rule: Omit<TextRule, 'emptyCode'>) {
  return z
    .string()
    .trim()
    .check(
      z.superRefine<string>((text, context) => {
        if (characterCount(text) > rule.maxCharacters) {
          addRuleProblem(
            context,
            rule.tooLongCode,
            `${rule.field} has ${characterCount(text)} characters; the limit is ${rule.maxCharacters}`,
          );
        }
      }),
    )
    .meta({ maxLength: rule.maxCharacters })
    .optional();
}

/** The `version` every versioned Arquiteto artifact carries in its payload (record ADR 0200). */
export const versionSchema = z
  .number()
  .check(
    z.superRefine<number>((version, context) => {
      if (!Number.isSafeInteger(version) || version < 1) {
        addRuleProblem(
          context,
          'invalid_value',
          `version must be a whole number ≥ 1, received ${version}`,
        );
      }
    }),
  )
  .meta({ type: 'integer', minimum: 1 });
