import { ScriptInvalidError, type ScriptIssue } from '../errors/script-invalid-error.ts';
import { scriptSchema, type Script } from './script-schema.ts';

/** Parses the text of a script file; a bad file is a ScriptInvalidError naming each JSON path and rule. */
export function parseScriptText(text: string, source: string): Script {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ScriptInvalidError(source, [
      { path: '(file)', message: `is not valid JSON: ${reason}` },
    ]);
  }
  return validateScript(value, source);
}

/** Validates a script given as a value (a test's in-memory script or parsed JSON). */
export function validateScript(value: unknown, source: string): Script {
  const result = scriptSchema.safeParse(value);
  if (result.success) return result.data;
  const issues: ScriptIssue[] = result.error.issues.map((issue) => ({
    path: formatJsonPath(issue.path),
    message: issue.message,
  }));
  throw new ScriptInvalidError(source, issues);
}

/** `['turns', 2, 'tool_calls', 0, 'name']` → `turns[2].tool_calls[0].name`. */
export function formatJsonPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  return path
    .map((key, position) =>
      typeof key === 'number' ? `[${key}]` : `${position === 0 ? '' : '.'}${String(key)}`,
    )
    .join('');
}
