import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createInMemoryGraphStore } from '../graph/in-memory-graph-store.ts';
import { memoryHistoryArbitrary, type HistoryEvent } from '../testing/memory-history.ts';
import { isGraphProjected, projectEvent } from './project-event.ts';
import type { ProjectedEvent } from './projected-event.ts';
import { queryUserContext } from './query-user-context.ts';

const PROJECT = 'project-1';

/** Stores a generated history the way the log would: seqs after session.created, one second apart. */
function stored(history: readonly HistoryEvent[]): ProjectedEvent[] {
  const seqs = new Map<number, number>();
  return history.map((event, index) => {
    const seq = (seqs.get(event.session) ?? 1) + 1;
    seqs.set(event.session, seq);
    return {
      id: `event-${index}`,
      session_id: `session-${event.session}`,
      project_id: PROJECT,
      seq,
      type: event.type,
      actor: event.actor,
      payload: event.payload,
      created_at: new Date(Date.UTC(2026, 0, 1) + index * 1000).toISOString(),
    };
  });
}

async function graphOf(events: readonly ProjectedEvent[]) {
  const graph = createInMemoryGraphStore();
  for (const event of events) await projectEvent(graph, event);
  return graph;
}

describe('the graph write use cases', () => {
  it('project a handoff, a hypothesis with its evidence and answer, a profile, and what was said', async () => {
    const events = stored([
      {
        session: 0,
        type: 'chat.message',
        actor: 'user',
        payload: { v: 1, text: 'Trabalho melhor à noite' },
      },
      {
        session: 0,
        type: 'handoff.offered',
        actor: 'system',
        payload: {
          v: 1,
          handoff_id: 'h1',
          from_agent: 'criativo',
          to_agent: 'po',
          artifact_id: 'a1',
          status: 'offered',
        },
      },
      {
        session: 0,
        type: 'handoff.accepted',
        actor: 'user',
        payload: {
          v: 1,
          handoff_id: 'h1',
          from_agent: 'criativo',
          to_agent: 'po',
          artifact_id: 'a1',
          status: 'accepted',
        },
      },
      {
        session: 0,
        type: 'hypothesis.proposed',
        actor: 'psicologo',
        payload: {
          v: 1,
          hypothesis_id: 'x1',
          statement: 'Prefere trabalhar à noite',
          evidence: [2],
          trigger: { kind: 'session.ended', reason: 'completed' },
          rag: { degraded: false },
        },
      },
      {
        session: 0,
        type: 'hypothesis.accepted',
        actor: 'user',
        payload: { v: 1, hypothesis_id: 'x1' },
      },
      {
        session: 0,
        type: 'anamnese.profile_recorded',
        actor: 'anamnese',
        payload: {
          v: 1,
          profile_id: 'p1',
          competency: 'SQL',
          level: 'avancado',
          summary: 'Escreve consultas com janelas',
          evidence: [2],
        },
      },
    ]);
    const graph = await graphOf(events);
    expect((await graph.findNode({ label: 'Handoff', key: 'h1' }))?.properties).toMatchObject({
      status: 'accepted',
      to_agent: 'po',
      project_id: PROJECT,
    });
    expect(await queryUserContext(graph, PROJECT)).toEqual({
      project_id: PROJECT,
      hypotheses: [
        {
          id: 'x1',
          session_id: 'session-0',
          statement: 'Prefere trabalhar à noite',
          status: 'accepted',
          trigger_reason: 'completed',
          proposed_at: events[3]!.created_at,
          answered_at: events[4]!.created_at,
          evidence: [
            {
              session_id: 'session-0',
              seq: 2,
              type: 'chat.message',
              excerpt: 'Trabalho melhor à noite',
            },
          ],
        },
      ],
      profiles: [
        {
          competency: 'SQL',
          level: 'avancado',
          recorded_at: events[5]!.created_at,
          evidence: [
            {
              session_id: 'session-0',
              seq: 2,
              type: 'chat.message',
              excerpt: 'Trabalho melhor à noite',
            },
          ],
        },
      ],
    });
    expect(await queryUserContext(graph, 'another-project')).toEqual({
      project_id: 'another-project',
      hypotheses: [],
      profiles: [],
    });
  });

  it('keeps the newest profile of a competency across sessions, compared without case or accents', async () => {
    const events = stored([
      {
        session: 1,
        type: 'anamnese.profile_recorded',
        actor: 'anamnese',
        payload: {
          v: 1,
          profile_id: 'p1',
          competency: 'TypeScript',
          level: 'iniciante',
          summary: 'Primeiros tipos',
          evidence: [1],
        },
      },
      {
        session: 0,
        type: 'anamnese.profile_recorded',
        actor: 'anamnese',
        payload: {
          v: 1,
          profile_id: 'p2',
          competency: 'typescript',
          level: 'avancado',
          summary: 'Tipos genéricos',
          evidence: [1],
        },
      },
    ]);
    const context = await queryUserContext(await graphOf([...events].reverse()), PROJECT);
    expect(context.profiles).toEqual([
      expect.objectContaining({ competency: 'typescript', level: 'avancado' }),
    ]);
  });

  it('skips, with the reason, what it cannot read or must not record', async () => {
    const graph = createInMemoryGraphStore();
    const [bad, forbidden] = stored([
      {
        session: 0,
        type: 'hypothesis.proposed',
        actor: 'psicologo',
        payload: {
          v: 1,
          hypothesis_id: 'x',
          statement: 's',
          evidence: [],
          trigger: { kind: 'session.ended', reason: 'completed' },
          rag: { degraded: false },
        },
      },
      {
        session: 0,
        type: 'anamnese.profile_recorded',
        actor: 'anamnese',
        payload: {
          v: 1,
          profile_id: 'p',
          competency: 'SQL',
          level: 'avancado',
          summary: 'Parece ter ansiedade com prazos',
          evidence: [1],
        },
      },
    ]);
    expect(await projectEvent(graph, bad!)).toEqual({
      outcome: 'skipped',
      reason: 'hypothesis.proposed #2: must cite at least one event',
    });
    expect(await projectEvent(graph, forbidden!)).toMatchObject({
      outcome: 'skipped',
      reason: expect.stringContaining('infers health'),
    });
    expect((await graph.snapshot()).nodes).toEqual([]);
  });

  it('projects only the events that matter to the graph', () => {
    expect(
      [
        'handoff.offered',
        'handoff.completed',
        'hypothesis.proposed',
        'hypothesis.dismissed',
        'anamnese.profile_recorded',
        'chat.message',
        'agent.response',
      ].every(isGraphProjected),
    ).toBe(true);
    expect(
      [
        'turn.started',
        'session.ended',
        'anamnese.profile_refused',
        'artifact.business_rule',
        'rag.feedback',
      ].some(isGraphProjected),
    ).toBe(false);
  });
});

describe('the graph write use cases, properties', () => {
  it('any order, with any event delivered again, gives the graph of the log in order', async () => {
    await fc.assert(
      fc.asyncProperty(
        memoryHistoryArbitrary(),
        fc.array(fc.nat()),
        fc.func(fc.integer()),
        async (history, repeats, shuffleKey) => {
          const events = stored(history);
          const again =
            events.length === 0 ? [] : repeats.map((index) => events[index % events.length]!);
          const delivered = [...events, ...again].sort(
            (left, right) => shuffleKey(left.id) - shuffleKey(right.id),
          );
          const inOrder = await (await graphOf(events)).snapshot();
          expect(await (await graphOf(delivered)).snapshot()).toEqual(inOrder);
        },
      ),
      { numRuns: 150 },
    );
  });
});
