import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rejectionsOf, rejectionTurnsOwed, standingRejections } from './rejected-handoffs.ts';

type Logged = { type: string; seq: number; payload: unknown };

const handoffEvent = (
  seq: number,
  status: 'offered' | 'rejected' | 'accepted',
  from: string,
  to: string,
  id: string,
  reason?: string,
): Logged => ({
  type: `handoff.${status}`,
  seq,
  payload: {
    v: 1,
    handoff_id: id,
    from_agent: from,
    to_agent: to,
    artifact_id: null,
    status,
    ...(reason === undefined ? {} : { reason }),
  },
});
const turnStarted = (seq: number, agent: string): Logged => ({
  type: 'turn.started',
  seq,
  payload: { v: 1, agent, turn_id: `t${seq}`, kind: 'message' },
});

describe('standingRejections', () => {
  it('keeps a rejection until its sender offers the same receiver again', () => {
    const events = [
      handoffEvent(1, 'offered', 'po', 'arquiteto', 'h1'),
      handoffEvent(2, 'rejected', 'po', 'arquiteto', 'h1', 'faltam critérios'),
      handoffEvent(3, 'offered', 'arquiteto', 'dev:a', 'h2'),
      handoffEvent(4, 'rejected', 'arquiteto', 'dev:a', 'h2', 'módulo grande demais'),
    ];
    expect(standingRejections(events)).toEqual([
      {
        handoff_id: 'h1',
        from_agent: 'po',
        to_agent: 'arquiteto',
        artifact_id: null,
        reason: 'faltam critérios',
        seq: 2,
      },
      expect.objectContaining({ handoff_id: 'h2', reason: 'módulo grande demais', seq: 4 }),
    ]);
    const reoffered = [...events, handoffEvent(5, 'offered', 'po', 'arquiteto', 'h3')];
    expect(rejectionsOf(reoffered, 'po')).toEqual([]);
    expect(rejectionsOf(reoffered, 'arquiteto')).toHaveLength(1);
  });

  it('reads a rejection from before reasons were required with an empty reason', () => {
    expect(
      standingRejections([handoffEvent(1, 'rejected', 'criativo', 'po', 'h1')])[0]?.reason,
    ).toBe('');
  });
});

describe('rejectionTurnsOwed', () => {
  it('owes the sender one turn after the rejection; any turn it starts after it pays it', () => {
    const rejected = [
      turnStarted(1, 'po'),
      handoffEvent(2, 'offered', 'po', 'arquiteto', 'h1'),
      handoffEvent(3, 'rejected', 'po', 'arquiteto', 'h1', 'x'),
    ];
    expect(rejectionTurnsOwed(rejected)).toEqual(['po']);
    expect(rejectionTurnsOwed([...rejected, turnStarted(4, 'po')])).toEqual([]);
    expect(rejectionTurnsOwed([...rejected, turnStarted(4, 'criativo')])).toEqual(['po']);
  });

  it('owes the Arquiteto one turn for several rejected dev handoffs, and again for a later one', () => {
    const events = [
      handoffEvent(1, 'offered', 'arquiteto', 'dev:a', 'a'),
      handoffEvent(2, 'offered', 'arquiteto', 'dev:b', 'b'),
      handoffEvent(3, 'rejected', 'arquiteto', 'dev:a', 'a', 'x'),
      handoffEvent(4, 'rejected', 'arquiteto', 'dev:b', 'b', 'y'),
    ];
    expect(rejectionTurnsOwed(events)).toEqual(['arquiteto']);
    const answered = [
      ...events.slice(0, 3),
      turnStarted(4, 'arquiteto'),
      { ...events[3]!, seq: 5 },
    ];
    expect(rejectionTurnsOwed(answered)).toEqual(['arquiteto']);
  });

  it('never owes a turn to an agent without a standing rejection, whatever the log', () => {
    const agents = fc.constantFrom('criativo', 'po', 'arquiteto');
    const event = fc.oneof(
      fc.record({
        from: agents,
        to: agents,
        status: fc.constantFrom('offered', 'rejected', 'accepted'),
      }),
      fc.record({ agent: agents }),
    );
    fc.assert(
      fc.property(fc.array(event, { maxLength: 30 }), (specs) => {
        const log = specs.map((spec, index) =>
          'agent' in spec
            ? turnStarted(index + 1, spec.agent)
            : handoffEvent(
                index + 1,
                spec.status as 'offered' | 'rejected' | 'accepted',
                spec.from,
                spec.to,
                `h${index}`,
                'r',
              ),
        );
        const standing = standingRejections(log);
        for (const agent of rejectionTurnsOwed(log)) {
          const latest = Math.max(
            ...standing
              .filter((rejection) => rejection.from_agent === agent)
              .map((rejection) => rejection.seq),
          );
          const lastTurn = Math.max(
            0,
            ...log
              .filter(
                (entry) =>
                  entry.type === 'turn.started' &&
                  (entry.payload as { agent: string }).agent === agent,
              )
              .map((entry) => entry.seq),
          );
          expect(lastTurn).toBeLessThan(latest);
        }
        // A standing rejection means no later offer between the same two agents.
        for (const rejection of standing)
          expect(
            log.some(
              (entry) =>
                entry.type === 'handoff.offered' &&
                entry.seq > rejection.seq &&
                (entry.payload as { from_agent: string }).from_agent === rejection.from_agent &&
                (entry.payload as { to_agent: string }).to_agent === rejection.to_agent,
            ),
          ).toBe(false);
      }),
    );
  });
});
