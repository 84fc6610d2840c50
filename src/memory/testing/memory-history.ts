import fc from 'fast-check';
import { COMPETENCE_LEVELS } from '../../domain/memory/memory-event-payloads.ts';
import { MEMORY_EVENT_TYPES } from '../../domain/memory/memory-event-types.ts';

/** An event of a generated history, for the session at index `session` of one project. */
export interface HistoryEvent {
  readonly session: number;
  readonly type: string;
  readonly actor: string;
  readonly payload: { readonly v: number } & Record<string, unknown>;
}

type Command =
  | { kind: 'message' | 'response'; session: number; text: string }
  | { kind: 'offer'; session: number; to: string }
  | { kind: 'advance'; session: number; pick: number; reject: boolean }
  | { kind: 'propose'; session: number; statement: string }
  | { kind: 'answer'; session: number; pick: number; accept: boolean }
  | { kind: 'profile'; session: number; competency: string; level: number }
  | { kind: 'noise'; session: number };

const text = fc.constantFrom(
  'Quero vender pão',
  'Entrego antes das 6h',
  'Vamos revisar o backlog',
  'Trabalho melhor à noite',
  'ação ✓',
);

/**
 * Test support: a random but valid memory history of one project with `sessions` sessions — messages,
 * responses, handoffs that move through their statuses, hypotheses proposed and answered once, competence
 * profiles recorded again and again, and events the graph ignores. Evidence cites seqs that exist.
 */
export function memoryHistoryArbitrary(sessions = 3, maxLength = 40): fc.Arbitrary<HistoryEvent[]> {
  const session = fc.integer({ min: 0, max: sessions - 1 });
  const command: fc.Arbitrary<Command> = fc.oneof(
    fc.record({ kind: fc.constantFrom('message' as const, 'response' as const), session, text }),
    fc.record({
      kind: fc.constant('offer' as const),
      session,
      to: fc.constantFrom('po', 'arquiteto', 'ux-designer'),
    }),
    fc.record({
      kind: fc.constant('advance' as const),
      session,
      pick: fc.nat(),
      reject: fc.boolean(),
    }),
    fc.record({ kind: fc.constant('propose' as const), session, statement: text }),
    fc.record({
      kind: fc.constant('answer' as const),
      session,
      pick: fc.nat(),
      accept: fc.boolean(),
    }),
    fc.record({
      kind: fc.constant('profile' as const),
      session,
      competency: fc.constantFrom('TypeScript', 'typescript', 'SQL', 'Comunicação'),
      level: fc.nat({ max: 3 }),
    }),
    fc.record({ kind: fc.constant('noise' as const), session }),
  );
  return fc.array(command, { maxLength }).map((commands) => buildHistory(commands, sessions));
}

function buildHistory(commands: readonly Command[], sessions: number): HistoryEvent[] {
  const seqs = Array.from({ length: sessions }, () => 1); // seq 1 is session.created
  const handoffs: Array<{ id: string; session: number; to: string; status: string }> = [];
  const hypotheses: Array<{ id: string; session: number; answered: boolean }> = [];
  const events: HistoryEvent[] = [];
  let counter = 0;
  const nextId = (prefix: string) => `${prefix}-${(counter += 1)}`;
  const push = (event: HistoryEvent) => {
    events.push(event);
    seqs[event.session] = seqs[event.session]! + 1;
  };
  const evidence = (session: number) => [seqs[session]!]; // the last event so far (session.created at least)

  for (const command of commands) {
    const at = command.session;
    switch (command.kind) {
      case 'message':
        push({
          session: at,
          type: 'chat.message',
          actor: 'user',
          payload: { v: 1, text: command.text },
        });
        break;
      case 'response':
        push({
          session: at,
          type: 'agent.response',
          actor: 'criativo',
          payload: { v: 1, agent: 'criativo', text: command.text },
        });
        break;
      case 'offer': {
        const handoff = { id: nextId('handoff'), session: at, to: command.to, status: 'offered' };
        handoffs.push(handoff);
        push({
          session: at,
          type: 'handoff.offered',
          actor: 'system',
          payload: handoffPayload(handoff),
        });
        break;
      }
      case 'advance': {
        const open = handoffs.filter(
          (handoff) =>
            handoff.session === at &&
            (handoff.status === 'offered' || handoff.status === 'accepted'),
        );
        const handoff = open[command.pick % Math.max(1, open.length)];
        if (handoff === undefined) break;
        handoff.status =
          handoff.status === 'accepted' ? 'completed' : command.reject ? 'rejected' : 'accepted';
        push({
          session: at,
          type: `handoff.${handoff.status}`,
          actor: 'user',
          payload: handoffPayload(handoff),
        });
        break;
      }
      case 'propose': {
        const hypothesis = { id: nextId('hypothesis'), session: at, answered: false };
        hypotheses.push(hypothesis);
        push({
          session: at,
          type: MEMORY_EVENT_TYPES.hypothesisProposed,
          actor: 'psicologo',
          payload: {
            v: 1,
            hypothesis_id: hypothesis.id,
            statement: command.statement,
            evidence: evidence(at),
            trigger: { kind: 'session.ended', reason: 'completed' },
            rag: { degraded: false },
          },
        });
        break;
      }
      case 'answer': {
        const open = hypotheses.filter(
          (hypothesis) => hypothesis.session === at && !hypothesis.answered,
        );
        const hypothesis = open[command.pick % Math.max(1, open.length)];
        if (hypothesis === undefined) break;
        hypothesis.answered = true;
        const type = command.accept
          ? MEMORY_EVENT_TYPES.hypothesisAccepted
          : MEMORY_EVENT_TYPES.hypothesisDismissed;
        push({ session: at, type, actor: 'user', payload: { v: 1, hypothesis_id: hypothesis.id } });
        break;
      }
      case 'profile':
        push({
          session: at,
          type: MEMORY_EVENT_TYPES.anamneseProfileRecorded,
          actor: 'anamnese',
          payload: {
            v: 1,
            profile_id: nextId('profile'),
            competency: command.competency,
            level: COMPETENCE_LEVELS[command.level]!,
            summary: `Usa ${command.competency} no dia a dia`,
            evidence: evidence(at),
          },
        });
        break;
      case 'noise':
        push({
          session: at,
          type: 'turn.started',
          actor: 'system',
          payload: { v: 1, agent: 'criativo', turn_id: nextId('turn'), kind: 'message' },
        });
        break;
    }
  }
  return events;
}

function handoffPayload(handoff: { id: string; to: string; status: string }) {
  return {
    v: 1,
    handoff_id: handoff.id,
    from_agent: 'criativo',
    to_agent: handoff.to,
    artifact_id: null,
    status: handoff.status,
  };
}

/** The same history with every generated id (`handoff-1`, …) prefixed, so histories can share one database. */
export function withIdPrefix(history: readonly HistoryEvent[], prefix: string): HistoryEvent[] {
  const ids = ['handoff_id', 'hypothesis_id', 'profile_id'];
  return history.map((event) => ({
    ...event,
    payload: Object.fromEntries(
      Object.entries(event.payload).map(([key, value]) => [
        key,
        ids.includes(key) ? `${prefix}:${String(value)}` : value,
      ]),
    ) as HistoryEvent['payload'],
  }));
}
