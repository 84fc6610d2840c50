import type { AssemblyReport, LayerOutcome, LayerReport, PromptUnit } from './assembly-report.ts';
import { dropWholeUnits } from './drop-whole-units.ts';
import { estimateTokenizer } from './estimate-tokenizer.ts';
import { InvalidLayerBudgetError } from './invalid-layer-budget-error.ts';
import { keepOrDrop } from './keep-or-drop.ts';
import {
  DEFAULT_LAYER_BUDGETS,
  LAYER_NAMES,
  LAYER_STRATEGIES,
  isLayerName,
  type LayerName,
} from './layers.ts';
import { LAYER_SEPARATOR, layerHeader } from './prompt-layout.ts';
import type { Tokenizer } from './tokenizer.ts';
import { truncateTail } from './truncate-tail.ts';

/**
 * The inputs of one assembly, keyed by layer wire name. Block layers are text; list layers are units in
 * drop order: instruction sources in ascending priority, business rules oldest first. Missing means empty.
 */
export interface PromptLayerInputs {
  readonly agent: string;
  readonly identidade?: string;
  readonly instruction_files?: readonly PromptUnit[];
  readonly contexto_projeto?: string;
  readonly regras_negocio?: readonly PromptUnit[];
  readonly estado_tarefa?: string;
}

/** Per-call options: budget overrides by layer name and the tokenizer (default: the bytes/4 estimate). */
export interface AssemblyOptions {
  readonly budgets?: Readonly<Partial<Record<string, number>>>;
  readonly tokenizer?: Tokenizer;
}

function resolveBudgets(
  overrides: Readonly<Partial<Record<string, number>>>,
): Record<LayerName, number> {
  const budgets = { ...DEFAULT_LAYER_BUDGETS };
  for (const [layer, budget] of Object.entries(overrides)) {
    if (budget === undefined) continue;
    if (!isLayerName(layer)) throw new InvalidLayerBudgetError(layer, budget, 'not a layer');
    if (!Number.isSafeInteger(budget) || budget < 0) {
      throw new InvalidLayerBudgetError(layer, budget, 'must be a non-negative integer');
    }
    budgets[layer] = budget;
  }
  return budgets;
}

// Trailing whitespace would only add blank lines before the next header; leading indentation may matter.
function blockText(text: string | undefined): string {
  return (text ?? '').trimEnd();
}

function emptyOutcome(tokenizer: Tokenizer, withUnits: boolean): LayerOutcome {
  const nothing = tokenizer.count('');
  const outcome = {
    status: 'empty' as const,
    content: '',
    tokens: nothing.tokens,
    estimated: nothing.estimated,
  };
  return withUnits ? { ...outcome, units: [] } : outcome;
}

function applyStrategy(
  name: LayerName,
  inputs: PromptLayerInputs,
  budget: number,
  tokenizer: Tokenizer,
) {
  const header = layerHeader(name);
  if (name === 'instruction_files' || name === 'regras_negocio') {
    const units = (inputs[name] ?? []).map((unit) => ({ id: unit.id, text: unit.text.trimEnd() }));
    if (units.length === 0) return emptyOutcome(tokenizer, true);
    // Instruction files keep the head of the last file that does not fit (ADR 0090); rules are never split.
    return dropWholeUnits(header, units, budget, tokenizer, {
      truncateBoundary: name === 'instruction_files',
    });
  }
  const text = blockText(inputs[name]);
  if (text.length === 0) return emptyOutcome(tokenizer, false);
  return LAYER_STRATEGIES[name] === 'keep_or_drop'
    ? keepOrDrop(header, text, budget, tokenizer)
    : truncateTail(header, text, budget, tokenizer);
}

// Fixed key order, so the same input always serialises to the same bytes.
function layerReport(name: LayerName, budget: number, outcome: LayerOutcome): LayerReport {
  const report = {
    name,
    strategy: LAYER_STRATEGIES[name],
    budget,
    tokens: outcome.tokens,
    estimated: outcome.estimated,
    status: outcome.status,
  };
  return outcome.units === undefined
    ? { ...report, content: outcome.content }
    : { ...report, units: outcome.units, content: outcome.content };
}

/**
 * Assembles the prompt from the five layers, each cut to its budget by its declared strategy (see
 * layers.ts and prompt-layout.ts). Pure and deterministic: the same inputs and options give a
 * byte-identical report. Empty layers cost 0 tokens and add nothing to the prompt.
 * @throws InvalidLayerBudgetError when an override names no layer or is not a non-negative integer.
 */
export function assemblePrompt(
  inputs: PromptLayerInputs,
  options: AssemblyOptions = {},
): AssemblyReport {
  const tokenizer = options.tokenizer ?? estimateTokenizer;
  const budgets = resolveBudgets(options.budgets ?? {});
  const layers = LAYER_NAMES.map((name) =>
    layerReport(name, budgets[name], applyStrategy(name, inputs, budgets[name], tokenizer)),
  );
  const prompt = layers
    .filter((layer) => layer.content.length > 0)
    .map((layer) => layer.content)
    .join(LAYER_SEPARATOR);
  const total = tokenizer.count(prompt);
  return {
    agent: inputs.agent,
    total_tokens: total.tokens,
    estimated: total.estimated || layers.some((layer) => layer.estimated),
    layers,
    prompt,
  };
}
