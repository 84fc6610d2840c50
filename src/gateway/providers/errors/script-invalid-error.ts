/** One reason a script was refused: where (`turns[2].tool_calls[0].name`) and which rule it broke. */
export type ScriptIssue = { path: string; message: string };

/** A scripted-model file that is not valid JSON or does not follow the script schema. */
export class ScriptInvalidError extends Error {
  override readonly name: string = 'ScriptInvalidError';
  /** Where the script came from: its file path, or `in-memory script`. */
  readonly source: string;
  readonly issues: ScriptIssue[];

  constructor(source: string, issues: ScriptIssue[]) {
    const listed = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
    super(`invalid scripted model (${source}): ${listed}`);
    this.source = source;
    this.issues = issues;
  }
}
