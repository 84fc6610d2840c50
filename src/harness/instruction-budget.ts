import { DEFAULT_LAYER_BUDGETS } from './layers.ts';

/**
 * The floor of the instruction layer's budget, in tokens: 8,192, Codex's `project_doc_max_bytes` (32 KiB)
 * at the estimate's four bytes a token, so a repository written for Codex fits as it is.
 */
export const INSTRUCTION_BUDGET_FLOOR = 8192;

/** The ceiling: 32,768 tokens (~128 KiB of instructions), beyond which more window buys no more instructions. */
export const INSTRUCTION_BUDGET_CEILING = 32_768;

/** The share of the model's window the instruction layer takes between floor and ceiling. */
export const INSTRUCTION_BUDGET_SHARE = 0.05;

/**
 * The instruction layer's budget for a model whose context window is `windowTokens`: 5 % of the window,
 * at least the floor (8,192) and at most the ceiling (32,768), and never more than a quarter of the window
 * (a small model keeps room for the conversation). Without a window (unknown model) it is today's default,
 * DEFAULT_LAYER_BUDGETS.instruction_files. Pure.
 * @throws RangeError when `windowTokens` is not a positive integer.
 */
export function instructionBudgetForWindow(windowTokens: number | undefined): number {
  if (windowTokens === undefined) return DEFAULT_LAYER_BUDGETS.instruction_files;
  if (!Number.isSafeInteger(windowTokens) || windowTokens <= 0) {
    throw new RangeError(`windowTokens: must be a positive integer (got ${windowTokens})`);
  }
  const share = Math.floor(windowTokens * INSTRUCTION_BUDGET_SHARE);
  const clamped = Math.min(INSTRUCTION_BUDGET_CEILING, Math.max(INSTRUCTION_BUDGET_FLOOR, share));
  return Math.min(clamped, Math.floor(windowTokens / 4));
}
