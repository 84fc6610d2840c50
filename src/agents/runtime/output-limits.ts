/**
 * How much of one model answer Forja takes (ADR 0306): its text, its tool calls, each call's arguments. What
 * passes a limit is not stored, and the model is told, with the limit, in what it reads next.
 */
export interface OutputLimits {
  /** Characters of one answer's text that are stored (`FORJA_MAX_ANSWER_CHARS`). */
  maxAnswerChars: number;
  /** Tool calls of one answer that are taken (`FORJA_MAX_TOOL_CALLS`). */
  maxToolCalls: number;
  /** Characters of one tool call's arguments, as the model wrote them (`FORJA_MAX_TOOL_ARGUMENT_CHARS`). */
  maxToolArgumentChars: number;
}

export const DEFAULT_OUTPUT_LIMITS: OutputLimits = {
  maxAnswerChars: 1024 * 1024,
  maxToolCalls: 64,
  maxToolArgumentChars: 2 * 1024 * 1024,
};

const SETTINGS = [
  { key: 'maxAnswerChars', variable: 'FORJA_MAX_ANSWER_CHARS', min: 1024, max: 64 * 1024 * 1024 },
  { key: 'maxToolCalls', variable: 'FORJA_MAX_TOOL_CALLS', min: 1, max: 1024 },
  {
    key: 'maxToolArgumentChars',
    variable: 'FORJA_MAX_TOOL_ARGUMENT_CHARS',
    min: 1024,
    max: 64 * 1024 * 1024,
  },
] as const;

/**
 * Reads `FORJA_MAX_ANSWER_CHARS` (1024 to 67108864), `FORJA_MAX_TOOL_CALLS` (1 to 1024) and
 * `FORJA_MAX_TOOL_ARGUMENT_CHARS` (1024 to 67108864); unset or empty, the defaults. A value that is not a
 * whole number in its range is an error naming the variable and the rule, never a silent default.
 */
export function readOutputLimits(
  env: Readonly<Record<string, string | undefined>>,
): { ok: true; limits: OutputLimits } | { ok: false; variable: string; message: string } {
  const limits = { ...DEFAULT_OUTPUT_LIMITS };
  for (const { key, variable, min, max } of SETTINGS) {
    const text = env[variable]?.trim();
    if (text === undefined || text === '') continue;
    const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isSafeInteger(value) || value < min || value > max)
      return {
        ok: false,
        variable,
        message: `${variable} must be a whole number from ${min} to ${max}, not "${env[variable]}".`,
      };
    limits[key] = value;
  }
  return { ok: true, limits };
}
