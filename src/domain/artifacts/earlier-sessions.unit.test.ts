import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSessionEvents } from '../conversation/test-support/build-session-events.ts';
import { earlierSessions } from './earlier-sessions.ts';

const brief = (title: string, version: number) => ({
  type: 'artifact.product_brief',
  payload: {
    v: 1,
    data: { version, title, summary: 's', problem: 'p', audience: 'a', goals: ['g'] },
  },
});
const decision = (question: string) => ({
  type: 'artifact.decision',
  actor: 'po',
  payload: { v: 1, data: { question, answer: 'sim', decided_by: 'po', reason: 'r' } },
});

describe('earlierSessions', () => {
  it('gives each other session its current brief and its decisions, and nothing of the current one', () => {
    const events = [
      ...buildSessionEvents('s1', [
        brief('Padaria', 1),
        decision('Entrega?'),
        brief('Padaria v2', 2),
        { type: 'artifact.product_brief', payload: { v: 1, data: { broken: true } } },
      ]),
      ...buildSessionEvents('s2', [decision('Pix?')], 10),
      ...buildSessionEvents('now', [brief('Agora', 1), decision('Hoje?')], 20),
    ];
    expect(earlierSessions(events, 'now')).toEqual([
      {
        session_id: 's1',
        brief: expect.objectContaining({ title: 'Padaria v2', version: 2 }),
        decisions: [expect.objectContaining({ question: 'Entrega?', decided_by: 'po' })],
      },
      {
        session_id: 's2',
        brief: null,
        decisions: [expect.objectContaining({ question: 'Pix?' })],
      },
    ]);
  });

  it('never holds the current session, and keeps the highest version of each brief', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ session: fc.constantFrom('a', 'b', 'now'), version: fc.nat(5) }), {
          maxLength: 20,
        }),
        (briefs) => {
          const events = briefs.flatMap((each, index) =>
            buildSessionEvents(
              each.session,
              [brief(`v${each.version + 1}`, each.version + 1)],
              index + 1,
            ),
          );
          const sessions = earlierSessions(events, 'now');
          expect(sessions.map((session) => session.session_id)).not.toContain('now');
          for (const session of sessions) {
            const highest = Math.max(
              ...briefs
                .filter((each) => each.session === session.session_id)
                .map((each) => each.version + 1),
            );
            expect(session.brief?.version).toBe(highest);
          }
        },
      ),
    );
  });
});
