import type { z } from 'zod';
import type {
  DeclarationProblemCode,
  DeclarationRefusal,
  ProblemAtPath,
} from './declaration-problems.ts';
import { refuseDeclaration } from './refusal.ts';
import { problemsFromZodIssues } from './zod-issues.ts';

/** An accepted declaration, parsed (trimmed, defaults applied), or the full reason it was refused. */
export type DeclarationValidation<Declaration> =
  | { readonly ok: true; readonly declaration: Declaration }
  | DeclarationRefusal;

/** How one tool's arguments are checked and how its refusal reads. */
export type DeclarationCheck = {
  readonly toolName: string;
  readonly fieldOrder: readonly string[];
  /** Problem code of an enum refusal by field name, e.g. `{ tipo: 'unknown_tipo' }`. */
  readonly valueCodes?: Readonly<Record<string, DeclarationProblemCode>>;
  /** Problems that need more than the arguments (e.g. the current module map), found by the caller. */
  readonly contextProblems?: readonly ProblemAtPath[];
};

/**
 * Validates a model's tool arguments against an artifact schema plus problems only the caller can see,
 * and reports all of them together in one refusal.
 */
export function validateDeclaration<Schema extends z.ZodType>(
  schema: Schema,
  args: unknown,
  check: DeclarationCheck,
): DeclarationValidation<z.output<Schema>> {
  const parsed = schema.safeParse(args, { reportInput: true });
  const problems = [
    ...(check.contextProblems ?? []),
    ...(parsed.success ? [] : problemsFromZodIssues(parsed.error.issues, check.valueCodes)),
  ];
  if (problems.length > 0 || !parsed.success)
    return refuseDeclaration(check.toolName, problems, check.fieldOrder);
  return { ok: true, declaration: parsed.data };
}
