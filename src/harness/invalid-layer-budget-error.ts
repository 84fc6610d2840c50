/** Thrown when a budget override names no layer or is not a non-negative integer. */
export class InvalidLayerBudgetError extends Error {
  override readonly name = 'InvalidLayerBudgetError';
  readonly layer: string;
  readonly budget: unknown;

  constructor(layer: string, budget: unknown, rule: string) {
    super(`budget for '${layer}': ${rule}`);
    this.layer = layer;
    this.budget = budget;
  }
}
