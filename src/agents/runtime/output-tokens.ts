/**
 * How many tokens one answer of an agent may hold (the request's output cap). Each agent kind has a default that
 * fits its job (the PO writes a whole backlog in one call, the Arquiteto whole contracts); a person sets another
 * per kind with `FORJA_MODEL_OUTPUT_TOKENS_<AGENT>`, beside the kind's `FORJA_MODEL_<AGENT>`.
 */
export const OUTPUT_TOKENS_VARIABLE = 'FORJA_MODEL_OUTPUT_TOKENS';

/** The agent kinds whose turns run in the tool loop, each with its cap (`dev:<module>` is `dev`). */
export const OUTPUT_TOKEN_KINDS = ['criativo', 'po', 'arquiteto', 'dev'] as const;
export type OutputTokenKind = (typeof OUTPUT_TOKEN_KINDS)[number];

/** The smallest and largest cap a setting may name: below 256 no tool call fits, above 200,000 no model answers. */
export const MIN_OUTPUT_TOKENS = 256;
export const MAX_OUTPUT_TOKENS = 200_000;

/** The caps set per kind; a kind left out keeps its agent's default. */
export type OutputTokenCaps = Readonly<Partial<Record<OutputTokenKind, number>>>;

/** `FORJA_MODEL_OUTPUT_TOKENS_<AGENT>`: `arquiteto` → `FORJA_MODEL_OUTPUT_TOKENS_ARQUITETO`. */
export function outputTokensVariable(kind: OutputTokenKind): string {
  return `${OUTPUT_TOKENS_VARIABLE}_${kind.toUpperCase()}`;
}

/**
 * Reads every `FORJA_MODEL_OUTPUT_TOKENS…` variable. Each must name a kind (`_CRIATIVO`, `_PO`, `_ARQUITETO`,
 * `_DEV`) and hold a whole number from 256 to 200,000; unset or empty, the agent's default. Anything else is an
 * error naming the variable and the rule, never a silent default.
 */
export function readOutputTokenCaps(
  env: Readonly<Record<string, string | undefined>>,
): { ok: true; caps: OutputTokenCaps } | { ok: false; variable: string; message: string } {
  const caps: Partial<Record<OutputTokenKind, number>> = {};
  const byVariable = new Map(OUTPUT_TOKEN_KINDS.map((kind) => [outputTokensVariable(kind), kind]));
  for (const variable of Object.keys(env).sort()) {
    if (variable !== OUTPUT_TOKENS_VARIABLE && !variable.startsWith(`${OUTPUT_TOKENS_VARIABLE}_`))
      continue;
    const kind = byVariable.get(variable);
    if (kind === undefined)
      return {
        ok: false,
        variable,
        message: `${variable} is not a Forja setting: an agent's output cap is ${OUTPUT_TOKENS_VARIABLE}_<AGENT>, AGENT one of ${[...byVariable.values()].map((one) => one.toUpperCase()).join(', ')}.`,
      };
    const raw = env[variable] ?? '';
    const text = raw.trim();
    if (text === '') continue;
    const tokens = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isSafeInteger(tokens) || tokens < MIN_OUTPUT_TOKENS || tokens > MAX_OUTPUT_TOKENS)
      return {
        ok: false,
        variable,
        message: `${variable} must be a whole number of tokens from ${MIN_OUTPUT_TOKENS} to ${MAX_OUTPUT_TOKENS}, not "${raw}".`,
      };
    caps[kind] = tokens;
  }
  return { ok: true, caps };
}

/** The cap of `agent`'s answers: its kind's setting, else the agent's own default. */
export function outputTokensFor(caps: OutputTokenCaps, agent: string, fallback: number): number {
  const kind = agent.split(':')[0] as OutputTokenKind;
  return (OUTPUT_TOKEN_KINDS as readonly string[]).includes(kind)
    ? (caps[kind] ?? fallback)
    : fallback;
}
