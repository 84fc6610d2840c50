import { describe, expect, it } from 'vitest';
import fixture from './__fixtures__/criativo-session.v1.json' with { type: 'json' };
import { initialState, type ConversationState } from './conversation-state.ts';
import { rehydrate } from './rehydrate.ts';
import type { SessionEvent } from './session-event.ts';
import { upcast, type UpcasterTable } from './upcast.ts';

const events: readonly SessionEvent[] = fixture;
const at = (seq: number): SessionEvent => {
  const event = events[seq - 1];
  if (event === undefined) throw new Error(`fixture has no seq ${seq}`);
  return event;
};

describe('upcast over the frozen v1 fixture', () => {
  it('leaves every current-version event as it is', () => {
    for (const event of events) expect(upcast(event)).toBe(event);
  });

  it('folds the frozen Criativo → PO session into the same state, forever', () => {
    const rule = {
      title: 'Janela de cancelamento',
      statement: 'O paciente pode cancelar até 24 horas antes da consulta.',
    };
    const handoff = {
      id: 'b3e9a7c2-5d14-4f6b-8a2e-91c0d7f3e5a8',
      session_id: '6f1d1c8e-3b7a-4d2e-9c51-0a7e2b9d4f10',
      from_agent: 'criativo',
      to_agent: 'po',
      artifact_id: at(9).id,
    };
    const expected: ConversationState = {
      ...initialState(),
      session_id: '6f1d1c8e-3b7a-4d2e-9c51-0a7e2b9d4f10',
      last_seq: 16,
      active_agents: [
        { agent: 'criativo', handoff_id: null, seq: 1 },
        { agent: 'po', handoff_id: handoff.id, seq: 13 },
      ],
      history: [
        {
          role: 'user',
          content: 'Quero um app para agendar consultas em clínicas.',
          to: null,
          seq: 2,
          event_id: at(2).id,
        },
        {
          role: 'tool',
          agent: 'criativo',
          tool_call_id: 'call-1',
          tool: 'emit_artifact',
          args: { type: 'business_rule', data: rule, origin: [2] },
          ok: true,
          content: 'recorded artifact.business_rule',
          seq: 4,
          event_id: at(4).id,
        },
        {
          role: 'assistant',
          agent: 'criativo',
          content: 'Anotei a regra de cancelamento. Quem pode remarcar?',
          seq: 6,
          event_id: at(6).id,
        },
        {
          role: 'assistant',
          agent: 'criativo',
          content: 'Consolidei o brief e ofereci o trabalho ao PO.',
          seq: 10,
          event_id: at(10).id,
        },
        { role: 'user', content: 'Comece pelos épicos.', to: null, seq: 15, event_id: at(15).id },
      ],
      business_rules: [
        {
          ...rule,
          event_id: at(5).id,
          seq: 5,
          origin: [2],
          supersedes: null,
          recorded_by: 'criativo',
        },
      ],
      product_brief: {
        event_id: at(9).id,
        seq: 9,
        data: {
          version: 1,
          title: 'Agenda de clínicas',
          summary: 'Agendamento online de consultas para clínicas pequenas.',
          problem: 'Clínicas perdem consultas por telefone ocupado.',
          audience: 'Clínicas com até 5 profissionais.',
          goals: ['Pacientes agendam sem ligar'],
          business_rule_refs: [at(5).id],
          out_of_scope: [],
          open_questions: ['Cobrar no agendamento?'],
        },
      },
      product_briefs: [
        {
          event_id: at(9).id,
          seq: 9,
          data: {
            version: 1,
            title: 'Agenda de clínicas',
            summary: 'Agendamento online de consultas para clínicas pequenas.',
            problem: 'Clínicas perdem consultas por telefone ocupado.',
            audience: 'Clínicas com até 5 profissionais.',
            goals: ['Pacientes agendam sem ligar'],
            business_rule_refs: [at(5).id],
            out_of_scope: [],
            open_questions: ['Cobrar no agendamento?'],
          },
        },
      ],
      artifacts: [
        { event_id: at(5).id, seq: 5, type: 'business_rule' },
        { event_id: at(9).id, seq: 9, type: 'product_brief' },
      ],
      readiness: {
        confirmed: true,
        event_id: at(7).id,
        seq: 7,
        confirmed_at: '2026-07-24T12:07:00.000Z',
      },
      handoffs: [{ ...handoff, status: 'accepted' }],
      turns_in_progress: [{ turn_id: 'turn-3', agent: 'po', kind: 'message', seq: 16 }],
      // Read since ADR 0220: how each lane's last turn ended (the consolidation answered at seq 10).
      lane_ends: [
        {
          agent: 'criativo',
          turn_id: 'turn-2',
          kind: 'consolidation',
          started_seq: 8,
          outcome: 'answered',
          answer_event_id: at(10).id,
          ended_seq: 10,
          used_tools: false,
        },
      ],
      ended_at_seq: null,
      pending_actions: [
        {
          action_id: 'action-1',
          tool_call_id: null,
          status: 'proposed',
          agent: 'po',
          turn_id: null,
          tool: 'create_backlog',
          args: { epics: 1 },
          seq: 14,
        },
      ],
      skipped: [],
    };
    expect(rehydrate(events)).toEqual(expected);
  });
});

describe('upcast chain', () => {
  const message = (payload: unknown): SessionEvent => ({ ...at(2), payload });
  // A made-up v0 → v1 → v2 history of chat.message, to prove steps chain in order from the stored version.
  const table: UpcasterTable = {
    'chat.message': {
      0: (payload) => ({ ...payload, v: 1 }),
      1: (payload) => ({ v: 2, body: payload['text'] }),
    },
  };

  it('applies upcasters from the stored version up to the last one known', () => {
    expect(upcast(message({ v: 0, text: 'hello' }), table).payload).toEqual({
      v: 2,
      body: 'hello',
    });
    expect(upcast(message({ v: 1, text: 'hello' }), table).payload).toEqual({
      v: 2,
      body: 'hello',
    });
  });

  it('leaves a payload without a version, or an event of another type, untouched', () => {
    const unversioned = message({ text: 'hello' });
    expect(upcast(unversioned, table)).toBe(unversioned);
    expect(upcast(at(6), table)).toBe(at(6));
  });

  it('throws when an upcaster does not raise the version, instead of looping', () => {
    const broken: UpcasterTable = { 'chat.message': { 1: (payload) => ({ ...payload }) } };
    expect(() => upcast(message({ v: 1, text: 'x' }), broken)).toThrow(
      'chat.message v1 upcaster returned v1',
    );
  });
});
