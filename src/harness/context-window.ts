/**
 * How many tokens a model reads in one call (its context window), and what of it is left for the
 * conversation once the fixed parts of a request are counted. Pure: the environment is passed in.
 *
 * The window comes, first found: `FORJA_MODEL_CONTEXT_TOKENS_<AGENT>` (the agent's slug in capitals, any
 * other character as `_`: `dev:billing` → `DEV_BILLING`, and `DEV` for every dev agent), then
 * `FORJA_MODEL_CONTEXT_TOKENS`, then what the agent's model server said (Ollama's `num_ctx`, vLLM's
 * `max_model_len`, a listed `context_length`), then the model's family (below), then a conservative default.
 */

export const CONTEXT_TOKENS_VARIABLE = 'FORJA_MODEL_CONTEXT_TOKENS';

/** The smallest and largest window a setting may name: below 1,024 no agent prompt fits at all. */
export const MIN_CONTEXT_TOKENS = 1024;
export const MAX_CONTEXT_TOKENS = 10_000_000;

/**
 * For a model no family matches. The harness's default layer budgets (about 18.7k tokens) were sized for a
 * 32k window, so that is the conservative floor; set the variable for a smaller local model.
 */
export const DEFAULT_CONTEXT_TOKENS = 32_768;

/** Share of the window kept free: the default tokenizer is an estimate (bytes / 4) and may undercount. */
export const CONTEXT_MARGIN_FRACTION = 0.1;

/** Windows of well-known model families, first match wins (so the more specific patterns come first). */
const MODEL_FAMILIES: ReadonlyArray<{ family: string; pattern: RegExp; tokens: number }> = [
  { family: 'gpt-5', pattern: /gpt-5/, tokens: 400_000 },
  { family: 'gpt-4.1', pattern: /gpt-4\.1/, tokens: 1_047_576 },
  { family: 'gpt-4o', pattern: /gpt-4o|chatgpt-4o/, tokens: 128_000 },
  { family: 'gpt-4-turbo', pattern: /gpt-4-turbo|gpt-4-\d{4}-preview/, tokens: 128_000 },
  { family: 'gpt-4-32k', pattern: /gpt-4-32k/, tokens: 32_768 },
  { family: 'gpt-4', pattern: /gpt-4(?![\w.])/, tokens: 8_192 },
  { family: 'gpt-3.5', pattern: /gpt-3\.5/, tokens: 16_385 },
  { family: 'o1-mini', pattern: /(^|[^a-z0-9])o1-(mini|preview)/, tokens: 128_000 },
  { family: 'o-series', pattern: /(^|[^a-z0-9])o[1-9](-|$)/, tokens: 200_000 },
  { family: 'claude', pattern: /claude/, tokens: 200_000 },
  { family: 'llama-3.1+', pattern: /llama-?3\.[1-9]|llama-?4/, tokens: 128_000 },
  { family: 'llama-3', pattern: /llama-?3/, tokens: 8_192 },
  { family: 'llama-2', pattern: /llama-?2/, tokens: 4_096 },
  { family: 'qwen', pattern: /qwen/, tokens: 32_768 },
  {
    family: 'mistral-large',
    pattern: /mistral-large|mistral-medium|codestral|ministral/,
    tokens: 128_000,
  },
  { family: 'mistral', pattern: /mistral|mixtral/, tokens: 32_768 },
  { family: 'gemma-3', pattern: /gemma-?3/, tokens: 128_000 },
  { family: 'gemma', pattern: /gemma/, tokens: 8_192 },
  { family: 'deepseek', pattern: /deepseek/, tokens: 64_000 },
  { family: 'phi', pattern: /(^|[^a-z])phi-?\d/, tokens: 4_096 },
];

/** The window settings read from the environment: the global one and those per agent (by variable suffix). */
export interface ContextWindowSettings {
  readonly global: number | null;
  /** Keyed by the variable's suffix, e.g. `CRIATIVO`, `DEV_BILLING`, `DEV`. */
  readonly perAgent: Readonly<Record<string, number>>;
}

export type ContextWindowSource =
  | 'agent_setting'
  | 'setting'
  | 'server'
  | 'model_family'
  | 'default';

/** A model's window for one agent, and where the figure came from (shown by `forja context`). */
export interface ContextWindow {
  readonly tokens: number;
  readonly source: ContextWindowSource;
  /** The variable that set it, what the server said (`Ollama num_ctx`), or the family that matched. */
  readonly from: string;
  /** Where the model's server cuts a prompt without saying so (Ollama's `num_ctx`), or null. */
  readonly truncates_at: number | null;
  /** What the person should know of this window (a setting past the server's cut, an assumed default), or null. */
  readonly warning: string | null;
}

/**
 * What the model's server said of the window (the gateway's probe asks it): the figure, where from, where it
 * cuts prompts silently, and a note. Structurally the gateway's `ServerWindow`.
 */
export interface ServerContext {
  readonly tokens: number;
  readonly from: string;
  readonly truncatesAt: number | null;
  readonly note: string | null;
}

export const NO_CONTEXT_WINDOW_SETTINGS: ContextWindowSettings = Object.freeze({
  global: null,
  perAgent: Object.freeze({}),
});

/**
 * Reads `FORJA_MODEL_CONTEXT_TOKENS` and every `FORJA_MODEL_CONTEXT_TOKENS_<AGENT>`. A value that is not a
 * whole number from 1,024 to 10,000,000 is an error naming the variable and the rule.
 */
export function readContextWindowSettings(
  env: Readonly<Record<string, string | undefined>>,
):
  | { ok: true; settings: ContextWindowSettings }
  | { ok: false; variable: string; message: string } {
  let global: number | null = null;
  const perAgent: Record<string, number> = {};
  for (const [variable, raw] of Object.entries(env)) {
    if (variable !== CONTEXT_TOKENS_VARIABLE && !variable.startsWith(`${CONTEXT_TOKENS_VARIABLE}_`))
      continue;
    const value = (raw ?? '').trim();
    if (value === '') continue;
    const tokens = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (
      !Number.isSafeInteger(tokens) ||
      tokens < MIN_CONTEXT_TOKENS ||
      tokens > MAX_CONTEXT_TOKENS
    ) {
      return {
        ok: false,
        variable,
        message: `${variable} must be a whole number of tokens from ${MIN_CONTEXT_TOKENS} to ${MAX_CONTEXT_TOKENS}, not "${raw}".`,
      };
    }
    if (variable === CONTEXT_TOKENS_VARIABLE) global = tokens;
    else perAgent[variable.slice(CONTEXT_TOKENS_VARIABLE.length + 1)] = tokens;
  }
  return { ok: true, settings: { global, perAgent } };
}

/** The suffix of an agent's own variable: `dev:billing` → `DEV_BILLING`. */
export function agentVariableSuffix(agent: string): string {
  return agent.toUpperCase().replace(/[^A-Z0-9]/g, '_');
}

/** The window of a model family the name matches (`gpt-4o-mini` → gpt-4o, 128,000), or null. */
export function modelFamilyWindow(model: string): { family: string; tokens: number } | null {
  const name = model.toLowerCase();
  const found = MODEL_FAMILIES.find((entry) => entry.pattern.test(name));
  return found === undefined ? null : { family: found.family, tokens: found.tokens };
}

/**
 * The window `agent` gets on `model`: its own setting, the global one, what the model's server said, the
 * model's family, or the default. A setting past the point where the server cuts prompts silently stands (the
 * person's word), with a warning: the gateway refuses, rather than sends, a request past that point.
 */
export function contextWindowFor(
  settings: ContextWindowSettings,
  model: string,
  agent: string,
  server: ServerContext | null = null,
): ContextWindow {
  const truncatesAt = server?.truncatesAt ?? null;
  const setting = (tokens: number, source: ContextWindowSource, from: string): ContextWindow => ({
    tokens,
    source,
    from,
    truncates_at: truncatesAt,
    warning:
      truncatesAt !== null && tokens > truncatesAt
        ? `${from} says ${tokens} tokens, but the model's server cuts prompts past ${truncatesAt} without saying so (${server?.from}): a request past ${truncatesAt} tokens is refused, not sent. Raise the server's window or lower ${from}.`
        : null,
  });
  const own = agentVariableSuffix(agent);
  const base = agentVariableSuffix(agent.split(':')[0] ?? agent);
  for (const suffix of own === base ? [own] : [own, base]) {
    const tokens = settings.perAgent[suffix];
    if (tokens !== undefined)
      return setting(tokens, 'agent_setting', `${CONTEXT_TOKENS_VARIABLE}_${suffix}`);
  }
  if (settings.global !== null) return setting(settings.global, 'setting', CONTEXT_TOKENS_VARIABLE);
  if (server !== null)
    return {
      tokens: server.tokens,
      source: 'server',
      from: server.from,
      truncates_at: truncatesAt,
      warning: server.note,
    };
  const family = modelFamilyWindow(model);
  if (family !== null)
    return {
      tokens: family.tokens,
      source: 'model_family',
      from: family.family,
      truncates_at: null,
      warning: null,
    };
  return {
    tokens: DEFAULT_CONTEXT_TOKENS,
    source: 'default',
    from: 'default',
    truncates_at: null,
    warning: null,
  };
}

/** The tokens of a window kept free for miscounting. */
export function contextMarginTokens(windowTokens: number): number {
  return Math.ceil(windowTokens * CONTEXT_MARGIN_FRACTION);
}

/** The fixed parts of one request, in tokens. */
export interface RequestFrame {
  readonly windowTokens: number;
  readonly systemTokens: number;
  readonly toolTokens: number;
  readonly maxOutputTokens: number;
}

/**
 * What is left for the conversation history: window − system prompt − tool definitions − the answer's
 * `maxOutputTokens` − the margin. Negative when the fixed parts alone do not fit.
 */
export function historyBudget(frame: RequestFrame): number {
  return (
    frame.windowTokens -
    frame.systemTokens -
    frame.toolTokens -
    frame.maxOutputTokens -
    contextMarginTokens(frame.windowTokens)
  );
}
