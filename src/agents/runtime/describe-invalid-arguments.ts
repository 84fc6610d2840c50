import type { z } from 'zod';

/** A refusal the model can act on: every problem with its argument path and the rule broken. */
export function describeInvalidArguments(toolName: string, error: z.ZodError): string {
  const problems = error.issues.map((issue) => {
    const path = issue.path.length > 0 ? issue.path.join('.') : '(arguments)';
    if (issue.code === 'unrecognized_keys')
      return `${path}: unknown field(s) ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
    return `${path}: ${issue.message}`;
  });
  return `Invalid arguments for ${toolName}: ${problems.join('; ')}. Nothing was done; call it again with corrected arguments.`;
}
