/** An answer of the model as the stop rule reads it: what it said and the tools it called. */
export interface RuleResponse {
  readonly text: string;
  readonly tool_calls?: readonly { readonly id: string; readonly name: string }[];
}

/** A recorded result of one of the answer's calls. */
export interface RuleResult {
  readonly tool_call_id: string;
  readonly ok: boolean;
}

/**
 * The loop's stop rule (ADR 0380): whether the turn ends on `response` without another model call. It does when
 * the answer already spoke (text that is not blank), it called tools, every one of them only records something
 * (`recordsOnly`: its result is an acknowledgement the model need not read) and every call's result is recorded
 * and ok. Any other call (a result to read: a file, a terminal's output), a refusal or an error, or a call not yet
 * answered means the model is called again: what a tool answered that matters must reach it. Pure.
 */
export function endsWithoutModelCall(
  response: RuleResponse,
  results: readonly RuleResult[],
  recordsOnly: (tool: string) => boolean,
): boolean {
  const calls = response.tool_calls ?? [];
  if (calls.length === 0 || response.text.trim() === '') return false;
  return calls.every((call) => {
    const own = results.filter((result) => result.tool_call_id === call.id);
    return recordsOnly(call.name) && own.length > 0 && own.every((result) => result.ok);
  });
}
