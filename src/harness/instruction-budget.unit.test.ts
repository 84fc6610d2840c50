import { describe, expect, it } from 'vitest';
import { instructionBudgetForWindow } from './instruction-budget.ts';
import { DEFAULT_LAYER_BUDGETS } from './layers.ts';

describe('instructionBudgetForWindow', () => {
  it('follows the window: 5 %, between the Codex-sized floor and the ceiling', () => {
    expect(instructionBudgetForWindow(128_000)).toBe(8192);
    expect(instructionBudgetForWindow(200_000)).toBe(10_000);
    expect(instructionBudgetForWindow(400_000)).toBe(20_000);
    expect(instructionBudgetForWindow(1_000_000)).toBe(32_768);
  });

  it('leaves a small window three quarters of itself, and keeps the default without a window', () => {
    expect(instructionBudgetForWindow(16_000)).toBe(4000);
    expect(instructionBudgetForWindow(undefined)).toBe(DEFAULT_LAYER_BUDGETS.instruction_files);
  });

  it('refuses a window that is not a positive integer, naming it', () => {
    for (const bad of [0, -1, 1.5, Number.NaN])
      expect(() => instructionBudgetForWindow(bad)).toThrow(
        /windowTokens: must be a positive integer/,
      );
  });
});
