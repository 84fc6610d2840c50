/**
 * The five prompt layers of record ADR 0006, in prompt order, with their wire names, strategies and default budgets.
 * Wire names are the records' names: they appear in `forja context --json` and must not be translated.
 */

/** Layer wire names in the order they appear in the prompt. */
export const LAYER_NAMES = [
  'identidade',
  'instruction_files',
  'contexto_projeto',
  'regras_negocio',
  'estado_tarefa',
] as const;

export type LayerName = (typeof LAYER_NAMES)[number];

/** The three truncation strategies the record allows. */
export type StrategyName = 'drop_whole_units' | 'truncate_tail' | 'keep_or_drop';

/** What a strategy did to a layer; `empty` means there was no input, so the layer costs 0 tokens. */
export type LayerStatus = 'kept' | 'truncated' | 'dropped' | 'empty';

/**
 * Each layer's declared strategy. `estado_tarefa` uses `truncate_tail`: the task state is written goal-first
 * (what to do, acceptance criteria, then progress notes), so its head is what an agent cannot work without;
 * `keep_or_drop` would lose the whole task for one extra line, and the state is a block, not a list of units.
 * The marker keeps the cut visible to the model.
 */
export const LAYER_STRATEGIES: Readonly<Record<LayerName, StrategyName>> = Object.freeze({
  identidade: 'keep_or_drop',
  instruction_files: 'drop_whole_units',
  contexto_projeto: 'truncate_tail',
  regras_negocio: 'drop_whole_units',
  estado_tarefa: 'truncate_tail',
});

/**
 * Default token budgets (headers included, see prompt-layout.ts). Together about 18.7k tokens: the whole
 * harness context fits a 32k-token model window with half of it left for conversation and answer. The
 * record asks for sensible defaults, to be calibrated once the ToolLoop runs real models.
 * - identidade 256: one line of identity plus its header needs ~60; room for a graph template.
 * - instruction_files 4096: a few AGENTS.md files of 2-4 KiB each.
 * - contexto_projeto 8192: the biggest block; ~32 KiB of project context under the estimate.
 * - regras_negocio 4096: ~100 business rules of one or two sentences.
 * - estado_tarefa 2048: goal, acceptance criteria and recent progress of one task.
 */
export const DEFAULT_LAYER_BUDGETS: Readonly<Record<LayerName, number>> = Object.freeze({
  identidade: 256,
  instruction_files: 4096,
  contexto_projeto: 8192,
  regras_negocio: 4096,
  estado_tarefa: 2048,
});

/** True when `value` is one of the five layer wire names. */
export function isLayerName(value: string): value is LayerName {
  return (LAYER_NAMES as readonly string[]).includes(value);
}
