import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rehydrate } from '../../domain/conversation/rehydrate.ts';
import { buildSessionEvents } from '../../domain/conversation/test-support/build-session-events.ts';
import { assemblePrompt, type LayerReport } from '../../harness/index.ts';
import { businessRuleUnits } from './build-system-prompt.ts';

/** A session where the person spoke, then Criativo recorded `count` business rules, in this order. */
function sessionWithRules(count: number) {
  const rules = Array.from({ length: count }, (_, index) => ({
    type: 'artifact.business_rule',
    actor: 'criativo',
    payload: {
      v: 1,
      data: { title: `Regra ${index + 1}`, statement: `Enunciado da regra ${index + 1}.` },
      origin: [1],
    },
  }));
  const message = { type: 'chat.message', actor: 'user', payload: { v: 1, text: 'As regras.' } };
  return rehydrate(buildSessionEvents('session-1', [message, ...rules]));
}

/** The regras_negocio layer of the prompt the session's rules are assembled into, within `budget`. */
function rulesLayer(count: number, budget: number): LayerReport {
  const report = assemblePrompt(
    {
      agent: 'po',
      regras_negocio: businessRuleUnits(sessionWithRules(count).business_rules),
      estado_tarefa: 'Declare o backlog.',
    },
    { budgets: { regras_negocio: budget } },
  );
  const layer = report.layers.find((candidate) => candidate.name === 'regras_negocio');
  if (layer === undefined) throw new Error('the report has no regras_negocio layer');
  return layer;
}

const keptIds = (layer: LayerReport) =>
  (layer.units ?? []).filter((unit) => unit.kept).map((unit) => unit.id);

describe('business rules in the prompt: the oldest are dropped first (record ADR 0006, drop_whole_units)', () => {
  it('keeps the newest rules that fit and drops the oldest, from the session as recorded', () => {
    // Each rule costs 11 tokens with its header (bytes/4); 40 holds the layer header and three rules.
    const layer = rulesLayer(6, 40);
    expect(layer.status).toBe('truncated');
    expect(keptIds(layer)).toEqual(['regra #5', 'regra #6', 'regra #7']);
    expect(layer.content).toContain('Regra 4: Enunciado da regra 4.');
    expect(layer.content).not.toContain('Regra 3');
    expect(layer.content.indexOf('Regra 4')).toBeLessThan(layer.content.indexOf('Regra 6'));
  });

  it('for any number of rules and any budget, what is kept is the newest rules, in the order recorded', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 12 }), fc.nat(200), (count, budget) => {
        const layer = rulesLayer(count, budget);
        const kept = keptIds(layer);
        const newest = Array.from({ length: count }, (_, index) => `regra #${index + 2}`).slice(
          count - kept.length,
        );
        expect(kept).toEqual(newest);
        expect(layer.tokens).toBeLessThanOrEqual(budget);
      }),
    );
  });
});
