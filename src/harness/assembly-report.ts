import type { LayerName, LayerStatus, StrategyName } from './layers.ts';

/** One unit of a list layer: an instruction source or a business rule. */
export interface PromptUnit {
  readonly id: string;
  readonly text: string;
}

/**
 * A unit as reported: its tokens (header included) and whether it made it into the prompt; `truncated`
 * when only its head did (the instruction layer's boundary unit, see dropWholeUnits).
 */
export interface UnitReport {
  readonly id: string;
  readonly tokens: number;
  readonly kept: boolean;
  readonly truncated?: true;
}

/** One layer as reported. `units` is present only for list layers; `content` is exactly what the prompt holds. */
export interface LayerReport {
  readonly name: LayerName;
  readonly strategy: StrategyName;
  readonly budget: number;
  readonly tokens: number;
  readonly estimated: boolean;
  readonly status: LayerStatus;
  readonly units?: readonly UnitReport[];
  readonly content: string;
}

/**
 * The assembly report, the shape `forja context --json` prints. `total_tokens` counts the whole prompt,
 * blank lines between layers included, so it can differ by a token or two from the sum of the layers.
 */
export interface AssemblyReport {
  readonly agent: string;
  readonly total_tokens: number;
  readonly estimated: boolean;
  readonly layers: readonly LayerReport[];
  readonly prompt: string;
}

/** What a strategy decided for one layer; the assembler adds name, strategy and budget. */
export interface LayerOutcome {
  readonly status: LayerStatus;
  readonly content: string;
  readonly tokens: number;
  readonly estimated: boolean;
  readonly units?: readonly UnitReport[];
}
