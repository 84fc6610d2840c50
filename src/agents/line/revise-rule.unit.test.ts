import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  foldEvents,
  initialState,
  type ConversationState,
  type SessionEvent,
} from '../../domain/conversation/index.ts';
import { planRuleRevision, ReviseRuleSchema } from './revise-rule.ts';
import { renderRuleRevisions, ruleRevisionTurnsOwed } from './rule-revisions.ts';

/** A session log built one event at a time; ids are `e<seq>`. */
function log() {
  const events: SessionEvent[] = [];
  const add = (type: string, actor: string, payload: Record<string, unknown>, id?: string) => {
    const seq = events.length + 1;
    events.push({
      id: id ?? `e${seq}`,
      session_id: 's',
      seq,
      type,
      actor,
      payload: { v: 1, ...payload },
      created_at: '2026-12-03T10:00:00.000Z',
    } as SessionEvent);
    return `e${seq}`;
  };
  return {
    events,
    add,
    state: (): ConversationState => foldEvents(initialState(), events),
    said: (text: string) => add('chat.message', 'user', { text }),
    rule: (statement: string, origin: number[]) =>
      add('artifact.business_rule', 'criativo', { data: { title: 'Prazo', statement }, origin }),
    turn: (agent: string) =>
      add('turn.started', 'system', { agent, turn_id: `t${events.length}`, kind: 'message' }),
  };
}

/** A log with one rule (e2, from the person's message e1), a brief citing it, and the person's change (e4). */
function withBrief() {
  const line = log();
  line.said('Trocas até as 18h.');
  const rule = line.rule('Trocas até as 18h.', [1]);
  line.add('artifact.product_brief', 'system', {
    data: {
      version: 1,
      title: 'Trocas',
      summary: 's',
      problem: 'p',
      audience: 'a',
      goals: ['g'],
      business_rule_refs: [rule],
    },
  });
  line.said('Agora as trocas vão até as 20h.');
  return { line, rule };
}

describe('planRuleRevision', () => {
  it('records the new version superseding the old, and the brief citing it follows in its next version', () => {
    const { line, rule } = withBrief();
    const planned = planRuleRevision(
      { rule_id: '#2', statement: 'Trocas até as 20h.', origin: [4] },
      { state: line.state(), events: line.events, agent: 'dev:trocas', newId: 'new' },
    );
    expect(planned).toMatchObject({ ok: true, revision: { briefFollows: true } });
    if (!planned.ok) return;
    const [revised, brief] = planned.revision.events;
    expect(revised).toEqual({
      id: 'new',
      type: 'artifact.business_rule',
      actor: 'dev:trocas',
      payload: {
        v: 1,
        data: { title: 'Prazo', statement: 'Trocas até as 20h.' },
        origin: [4],
        supersedes: rule,
      },
    });
    expect(brief).toMatchObject({
      type: 'artifact.product_brief',
      actor: 'system',
      payload: { data: { version: 2, business_rule_refs: ['new'], title: 'Trocas' } },
    });

    // Folded, the old version is superseded and the new one stands; the brief is its version 2.
    line.add(revised!.type, revised!.actor, revised!.payload as Record<string, unknown>, 'new');
    line.add(brief!.type, brief!.actor, brief!.payload as Record<string, unknown>);
    const state = line.state();
    expect(state.business_rules.map((each) => [each.event_id, each.supersedes])).toEqual([
      ['new', rule],
    ]);
    expect(state.superseded_rules).toMatchObject([{ event_id: rule, superseded_by: 'new' }]);
    expect(state.product_brief?.data).toMatchObject({ version: 2, business_rule_refs: ['new'] });

    // The old version cannot be revised again: the refusal names the rule as it stands.
    expect(
      planRuleRevision(
        { rule_id: rule, statement: 'Trocas até as 21h.', origin: [4] },
        { state, events: line.events, agent: 'po', newId: 'x' },
      ),
    ).toEqual({
      ok: false,
      reason: `rule_id: ${rule} was already revised; the rule as it stands is regra #5 (new)`,
    });
  });

  it('refuses an unknown rule, an origin without a message of the person, and a revision that changes nothing', () => {
    const { line } = withBrief();
    const context = { state: line.state(), events: line.events, agent: 'po', newId: 'n' };
    expect(planRuleRevision({ rule_id: '#9', statement: 'x', origin: [4] }, context)).toMatchObject(
      { ok: false, reason: expect.stringContaining('rule_id: no business rule #9') },
    );
    expect(
      planRuleRevision({ rule_id: 'e2', statement: 'Trocas até as 20h.', origin: [2] }, context),
    ).toMatchObject({
      ok: false,
      reason: expect.stringContaining('origin: seq 2 is not a chat.message'),
    });
    line.add('agent.response', 'po', { agent: 'po', text: 'Até as 20h?', tool_calls: [] });
    const answered = { ...context, state: line.state(), events: line.events };
    expect(
      planRuleRevision({ rule_id: 'e2', statement: 'Trocas até as 20h.', origin: [5] }, answered),
    ).toMatchObject({
      ok: false,
      reason: expect.stringContaining("must cite at least one of the person's messages"),
    });
    expect(
      planRuleRevision({ rule_id: 'e2', statement: 'Trocas até as 18h.', origin: [4] }, answered),
    ).toMatchObject({ ok: false, reason: expect.stringContaining('nothing to revise') });
  });

  it('any chain of revisions leaves one standing version per rule and every other superseded (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2 }), { maxLength: 12 }), (picks) => {
        const line = log();
        line.said('regras');
        const rules = [0, 1, 2].map((index) => line.rule(`regra ${index}`, [1]));
        picks.forEach((pick, step) => {
          const state = line.state();
          const planned = planRuleRevision(
            { rule_id: rules[pick]!, statement: `regra ${pick} v${step}`, origin: [1] },
            { state, events: line.events, agent: 'po', newId: `r${step}` },
          );
          if (!planned.ok) throw new Error(planned.reason);
          const [event] = planned.revision.events;
          line.add(
            event!.type,
            event!.actor,
            event!.payload as Record<string, unknown>,
            `r${step}`,
          );
          rules[pick] = `r${step}`;
        });
        const state = line.state();
        expect(state.business_rules.map((rule) => rule.event_id).sort()).toEqual([...rules].sort());
        expect(state.superseded_rules).toHaveLength(picks.length);
      }),
    );
  });

  it('takes only well-formed arguments, naming the field (property)', () => {
    fc.assert(
      fc.property(
        fc.record({
          rule_id: fc.oneof(fc.string({ maxLength: 80 }), fc.integer()),
          statement: fc.string({ maxLength: 2100 }),
          origin: fc.array(fc.integer(), { maxLength: 3 }),
        }),
        (args) => {
          const parsed = ReviseRuleSchema.safeParse(args);
          const valid =
            typeof args.rule_id === 'string' &&
            args.rule_id.trim().length > 0 &&
            args.rule_id.trim().length <= 64 &&
            args.statement.trim().length > 0 &&
            args.statement.trim().length <= 2000 &&
            !args.statement.includes('\u0000') &&
            args.statement.isWellFormed() &&
            args.origin.length > 0;
          expect(parsed.success).toBe(valid);
          if (!parsed.success)
            expect(parsed.error.issues[0]!.path[0]).toMatch(/^(rule_id|statement|origin)$/);
        },
      ),
    );
  });
});

describe('rule revisions reach the PO and the Arquiteto', () => {
  it('owes each one turn when another agent revised a rule after its last turn started, and tells the PO the stories', () => {
    const { line, rule } = withBrief();
    line.turn('po');
    line.turn('arquiteto');
    line.add('artifact.epic', 'po', {
      data: { id: 'EP-001', title: 'Trocas', description: 'd', business_rule_refs: [rule] },
    });
    line.add('artifact.story', 'po', {
      data: {
        id: 'HS-001',
        epic_id: 'EP-001',
        title: 'Trocar um item',
        description: 'd',
        acceptance_criteria: ['até as 18h'],
      },
    });
    expect(ruleRevisionTurnsOwed(line.events)).toEqual([]);
    line.add('artifact.business_rule', 'dev:trocas', {
      data: { title: 'Prazo', statement: 'Trocas até as 20h.' },
      origin: [4],
      supersedes: rule,
    });
    expect(ruleRevisionTurnsOwed(line.events)).toEqual(['po', 'arquiteto']);

    line.turn('po');
    const state = line.state();
    const told = renderRuleRevisions(state, line.events, 'po');
    expect(told).toContain(
      '- "Prazo" (regra #9, id e9; substitui a regra #2, id e2), revisada por dev:trocas a partir de #4: antes "Trocas até as 18h."; agora "Trocas até as 20h."',
    );
    expect(told).toContain('histórias afetadas: HS-001 — Trocar um item');
    // The PO's turn moved its last start past the revision: owed once.
    expect(ruleRevisionTurnsOwed(line.events)).toEqual(['arquiteto']);
    line.turn('arquiteto');
    expect(renderRuleRevisions(line.state(), line.events, 'arquiteto')).toContain(
      'Veja se contratos, mapa ou tarefas dependem da regra',
    );
    expect(ruleRevisionTurnsOwed(line.events)).toEqual([]);
    // A revision the PO makes itself owes it nothing; the Arquiteto is told.
    line.add('artifact.business_rule', 'po', {
      data: { title: 'Prazo', statement: 'Trocas até as 21h.' },
      origin: [4],
      supersedes: 'e9',
    });
    expect(ruleRevisionTurnsOwed(line.events)).toEqual(['arquiteto']);
  });
});
