import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assemblePrompt, type PromptLayerInputs } from './assemble-prompt.ts';
import { estimateTokenizer } from './estimate-tokenizer.ts';
import { InvalidLayerBudgetError } from './invalid-layer-budget-error.ts';
import { DEFAULT_LAYER_BUDGETS, LAYER_NAMES } from './layers.ts';
import { LAYER_SEPARATOR } from './prompt-layout.ts';
import { wordTokenizer } from './test-tokenizers.ts';

const text = fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀', ' ', '\n'), maxLength: 300 });
const units = fc.uniqueArray(fc.record({ id: fc.string({ minLength: 1, maxLength: 6 }), text }), {
  selector: (unit) => unit.id,
  maxLength: 6,
});
const layerInputs = fc.record(
  {
    identidade: text,
    instruction_files: units,
    contexto_projeto: text,
    regras_negocio: units,
    estado_tarefa: text,
  },
  { requiredKeys: [] },
);
const budgets = fc.record(
  Object.fromEntries(LAYER_NAMES.map((name) => [name, fc.nat(200)])) as Record<
    (typeof LAYER_NAMES)[number],
    fc.Arbitrary<number>
  >,
  { requiredKeys: [] },
);

describe('assemblePrompt', () => {
  it('reports the five layers in order, with their strategies and default budgets', () => {
    const report = assemblePrompt({ agent: 'po', identidade: 'Você é o PO.' });
    expect(report.layers.map((layer) => [layer.name, layer.strategy, layer.budget])).toEqual([
      ['identidade', 'keep_or_drop', DEFAULT_LAYER_BUDGETS.identidade],
      ['instruction_files', 'drop_whole_units', DEFAULT_LAYER_BUDGETS.instruction_files],
      ['contexto_projeto', 'truncate_tail', DEFAULT_LAYER_BUDGETS.contexto_projeto],
      ['regras_negocio', 'drop_whole_units', DEFAULT_LAYER_BUDGETS.regras_negocio],
      ['estado_tarefa', 'truncate_tail', DEFAULT_LAYER_BUDGETS.estado_tarefa],
    ]);
    expect(report.agent).toBe('po');
    expect(report.prompt).toBe('## identidade\nVocê é o PO.');
  });

  it('gives empty layers 0 tokens, no content and no place in the prompt', () => {
    const report = assemblePrompt({ agent: 'dev', contexto_projeto: '  \n\n', regras_negocio: [] });
    expect(report.layers.map((layer) => [layer.status, layer.tokens, layer.content])).toEqual(
      LAYER_NAMES.map(() => ['empty', 0, '']),
    );
    expect(report.layers[3]?.units).toEqual([]);
    expect(report.layers[2]).not.toHaveProperty('units');
    expect(report).toMatchObject({ prompt: '', total_tokens: 0, estimated: true });
  });

  it('joins the layers in order with a blank line and counts the whole prompt', () => {
    const report = assemblePrompt({
      agent: 'dev',
      identidade: 'id',
      instruction_files: [{ id: 'AGENTS.md', text: 'raiz\n' }],
      estado_tarefa: 'tarefa',
    });
    expect(report.prompt).toBe(
      '## identidade\nid\n\n## instruction_files\n### AGENTS.md\nraiz\n\n## estado_tarefa\ntarefa',
    );
    expect(report.total_tokens).toBe(estimateTokenizer.count(report.prompt).tokens);
  });

  it('applies budget overrides and the tokenizer it is given', () => {
    const report = assemblePrompt(
      { agent: 'dev', contexto_projeto: 'um dois três quatro cinco seis' },
      { budgets: { contexto_projeto: 7 }, tokenizer: wordTokenizer },
    );
    // Eight words do not fit in 7: '##', 'contexto_projeto', two kept words and the marker's three do.
    const layer = report.layers[2];
    expect(layer).toMatchObject({ budget: 7, tokens: 7, status: 'truncated', estimated: false });
    expect(layer?.content).toBe('## contexto_projeto\num dois \n[… truncado …]');
    expect(report.estimated).toBe(false);
  });

  it('rejects a budget that names no layer or is not a non-negative integer', () => {
    for (const bad of [
      { contexto: 10 },
      { estado_tarefa: -1 },
      { identidade: 1.5 },
      { identidade: Number.NaN },
    ]) {
      expect(() => assemblePrompt({ agent: 'dev' }, { budgets: bad })).toThrow(
        InvalidLayerBudgetError,
      );
    }
  });

  it('never lets a layer exceed its budget, and reports the tokens of exactly its content', () => {
    fc.assert(
      fc.property(layerInputs, budgets, (inputs, overrides) => {
        const report = assemblePrompt({ agent: 'dev', ...inputs }, { budgets: overrides });
        for (const layer of report.layers) {
          expect(layer.tokens).toBeLessThanOrEqual(layer.budget);
          expect(layer.tokens).toBe(estimateTokenizer.count(layer.content).tokens);
          expect(layer.status === 'empty' || layer.status === 'dropped').toBe(layer.content === '');
        }
        const contents = report.layers
          .map((layer) => layer.content)
          .filter((content) => content !== '');
        expect(report.prompt).toBe(contents.join(LAYER_SEPARATOR));
        const layerSum = report.layers.reduce((sum, layer) => sum + layer.tokens, 0);
        expect(report.total_tokens).toBeLessThanOrEqual(
          layerSum + Math.ceil(Math.max(0, contents.length - 1) / 2),
        );
      }),
    );
  });

  it('is deterministic: the same input gives a byte-identical report', () => {
    fc.assert(
      fc.property(layerInputs, budgets, (inputs, overrides) => {
        const first = JSON.stringify(
          assemblePrompt({ agent: 'po', ...inputs }, { budgets: overrides }),
        );
        const copy = structuredClone(inputs) as Partial<PromptLayerInputs>;
        expect(
          JSON.stringify(assemblePrompt({ agent: 'po', ...copy }, { budgets: { ...overrides } })),
        ).toBe(first);
      }),
    );
  });
});
