import { describe, expect, it } from 'vitest';
import type { EarlierSession } from '../../domain/artifacts/index.ts';
import {
  MAX_EARLIER_BRIEFS,
  MAX_EARLIER_DECISIONS,
  renderEarlierSessions,
} from './render-earlier-sessions.ts';

const session = (index: number, decisions = 1): EarlierSession => ({
  session_id: `s${index}`,
  brief: {
    version: 1,
    title: `Ideia ${index}`,
    summary: `Resumo ${index}`,
    problem: 'p',
    audience: 'a',
    goals: [`Objetivo ${index}`],
    business_rule_refs: [],
    out_of_scope: [],
    open_questions: [],
  },
  decisions: Array.from({ length: decisions }, (_, each) => ({
    question: `Pergunta ${index}.${each}`,
    answer: 'x'.repeat(600),
    decided_by: each === 0 ? 'person' : 'arquiteto',
    reason: 'r',
  })),
});

describe('the earlier sessions as the line reads them', () => {
  it('is nothing when no earlier session left a brief or a decision', () => {
    expect(renderEarlierSessions([])).toBeNull();
    expect(renderEarlierSessions([{ session_id: 's', brief: null, decisions: [] }])).toBeNull();
  });

  it('shows the last briefs and decisions, counts the rest, and cuts a long answer', () => {
    const sessions = Array.from({ length: MAX_EARLIER_BRIEFS + 2 }, (_, index) =>
      session(index, 6),
    );
    const text = renderEarlierSessions(sessions)!;
    expect(text).toContain('## Sessões anteriores: briefs e decisões');
    expect(text).toContain('(2 briefs mais antigos não mostrados)');
    expect(text).not.toContain('Ideia 1\n');
    expect(text).toContain(`### Brief anterior: Ideia ${MAX_EARLIER_BRIEFS + 1}\nResumo`);
    expect(text).toContain(`- Objetivo ${MAX_EARLIER_BRIEFS + 1}`);
    expect(text).toContain(`(${sessions.length * 6 - MAX_EARLIER_DECISIONS} decisões mais antigas`);
    expect(text).toContain(
      `- Pergunta 4.1 → ${'x'.repeat(500)} [… truncado …] (decidido por: arquiteto)`,
    );
    expect(text).toContain('(decidido por: a pessoa)');
    expect(text).not.toContain('Pergunta 0.0');
  });
});
