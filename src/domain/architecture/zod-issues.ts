import type { core } from 'zod';
import type { DeclarationProblemCode, ProblemAtPath } from './declaration-problems.ts';

/**
 * Turns zod issues into problems a model can act on. Domain rules carry their own code in `params.code`
 * (see `addRuleProblem`); structural issues get the field path and what was expected. Parse with
 * `reportInput: true` so a missing field can be told apart from a wrong type.
 *
 * `valueCodes` names the code of an enum refusal by field (e.g. `{ tipo: 'unknown_tipo' }`).
 */
export function problemsFromZodIssues(
  issues: readonly core.$ZodIssue[],
  valueCodes: Readonly<Record<string, DeclarationProblemCode>> = {},
): ProblemAtPath[] {
  return issues.map((issue) => problemFromIssue(issue, valueCodes));
}

function problemFromIssue(
  issue: core.$ZodIssue,
  valueCodes: Readonly<Record<string, DeclarationProblemCode>>,
): ProblemAtPath {
  const path = issue.path;
  if (issue.code === 'custom') {
    const code =
      (issue.params as { code?: DeclarationProblemCode } | undefined)?.code ?? 'invalid_value';
    return { code, path, message: issue.message };
  }
  if (issue.code === 'invalid_type') {
    if (path.length === 0) {
      return {
        code: 'malformed_arguments',
        path,
        message: `arguments must be a JSON object, received ${describeValue(issue.input)}`,
      };
    }
    if (issue.input === undefined) {
      return {
        code: 'missing_field',
        path,
        message: `required field is missing (expected ${issue.expected})`,
      };
    }
    return {
      code: 'wrong_type',
      path,
      message: `expected ${issue.expected}, received ${describeValue(issue.input)}`,
    };
  }
  if (issue.code === 'unrecognized_keys') {
    return { code: 'unknown_field', path, message: issue.message };
  }
  const field = path.at(-1);
  const code =
    issue.code === 'invalid_value' && typeof field === 'string' ? valueCodes[field] : undefined;
  return {
    code: code ?? 'invalid_value',
    path,
    message: issue.message.replace(/^Invalid input: /, ''),
  };
}

/** Names the JSON type of a value without echoing it (an argument may be large). */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && !Number.isInteger(value)) return `number ${value}`;
  return typeof value;
}
