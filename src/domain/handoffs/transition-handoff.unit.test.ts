import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TERMINAL_HANDOFF_STATUSES, type Handoff, type HandoffStatus } from './handoff.ts';
import { handoffFromEvent } from './handoff-event.ts';
import { offerHandoff } from './offer-handoff.ts';
import { transitionHandoff, type HandoffCommand } from './transition-handoff.ts';

const offered: Handoff = {
  id: 'h-1',
  session_id: 'session-1',
  from_agent: 'criativo',
  to_agent: 'po',
  artifact_id: 'brief-event-id',
  status: 'offered',
};
const inStatus = (status: HandoffStatus): Handoff => ({ ...offered, status });

describe('transitionHandoff', () => {
  it.each([
    ['offered', { type: 'accept', actor: 'user' }, 'accepted'],
    ['offered', { type: 'reject', actor: 'user', reason: 'not yet' }, 'rejected'],
    ['accepted', { type: 'complete', actor: 'po' }, 'completed'],
  ] as const)('moves an %s handoff by %j to %s with its event', (from, command, to) => {
    const result = transitionHandoff(inStatus(from), command);
    expect(result).toEqual({
      ok: true,
      handoff: inStatus(to),
      event: {
        type: `handoff.${to}`,
        actor: command.actor,
        payload: {
          v: 1,
          handoff_id: 'h-1',
          from_agent: 'criativo',
          to_agent: 'po',
          artifact_id: 'brief-event-id',
          status: to,
          ...('reason' in command ? { reason: command.reason } : {}),
        },
      },
    });
  });

  it.each([
    ['completed', 'accept', 'handoff h-1 is completed; only an offered handoff can be accepted'],
    [
      'accepted',
      'accept',
      'handoff h-1 is already accepted; only an offered handoff can be accepted',
    ],
    ['rejected', 'accept', 'handoff h-1 is rejected; only an offered handoff can be accepted'],
    ['accepted', 'reject', 'handoff h-1 is accepted; only an offered handoff can be rejected'],
    ['completed', 'reject', 'handoff h-1 is completed; only an offered handoff can be rejected'],
    [
      'rejected',
      'reject',
      'handoff h-1 is already rejected; only an offered handoff can be rejected',
    ],
    ['offered', 'complete', 'handoff h-1 is offered; only an accepted handoff can be completed'],
    [
      'completed',
      'complete',
      'handoff h-1 is already completed; only an accepted handoff can be completed',
    ],
    ['rejected', 'complete', 'handoff h-1 is rejected; only an accepted handoff can be completed'],
  ] as const)('refuses an invalid transition: %s handoff, %s', (status, type, reason) => {
    const command = { type, actor: 'user', reason: 'a reason' } as HandoffCommand;
    expect(transitionHandoff(inStatus(status), command)).toEqual({
      ok: false,
      reason,
    });
  });

  it("keeps the person's rejection reason in the event, trimmed, and refuses one that is too long", () => {
    const result = transitionHandoff(offered, {
      type: 'reject',
      actor: 'user',
      reason: '  not yet  ',
    });
    expect(result.ok && result.event.payload).toMatchObject({
      status: 'rejected',
      reason: 'not yet',
    });
    expect(
      transitionHandoff(offered, { type: 'reject', actor: 'user', reason: 'x'.repeat(1001) }),
    ).toEqual({
      ok: false,
      reason: 'reason: must be at most 1000 characters',
    });
  });

  it.each([
    ['empty', ''],
    ['only spaces', ' \n\t '],
  ])(
    'refuses a rejection whose reason is %s: the sender would have nothing to act on',
    (_case, reason) => {
      expect(transitionHandoff(offered, { type: 'reject', actor: 'user', reason })).toEqual({
        ok: false,
        reason: 'reason: must not be empty',
      });
    },
  );
});

describe('transitionHandoff properties', () => {
  const commandArbitrary = fc.constantFrom<HandoffCommand>(
    { type: 'accept', actor: 'user' },
    { type: 'reject', actor: 'user', reason: 'not yet' },
    { type: 'complete', actor: 'po' },
  );
  const validPaths = new Set([
    'offered',
    'offered>accepted',
    'offered>accepted>completed',
    'offered>rejected',
  ]);

  it('any sequence of commands walks only a valid path, and the events read back as the handoff', () => {
    fc.assert(
      fc.property(fc.array(commandArbitrary, { maxLength: 12 }), (commands) => {
        let handoff = offered;
        const path: HandoffStatus[] = ['offered'];
        for (const command of commands) {
          const result = transitionHandoff(handoff, command);
          if (!result.ok) continue;
          expect(handoffFromEvent({ ...result.event, session_id: 'session-1' })).toEqual(
            result.handoff,
          );
          handoff = result.handoff;
          path.push(handoff.status);
        }
        expect(validPaths.has(path.join('>'))).toBe(true);
      }),
    );
  });

  it('a terminal handoff accepts no command', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TERMINAL_HANDOFF_STATUSES),
        commandArbitrary,
        (status, command) => {
          const result = transitionHandoff(inStatus(status), command);
          expect(result.ok).toBe(false);
        },
      ),
    );
  });
});

describe('offerHandoff', () => {
  const offer = {
    id: 'h-1',
    session_id: 'session-1',
    from_agent: 'criativo',
    to_agent: 'po',
    artifact_id: 'brief-event-id',
    actor: 'system',
  };

  it('creates an offered handoff and its handoff.offered event', () => {
    const result = offerHandoff(offer);
    expect(result).toEqual({
      ok: true,
      handoff: offered,
      event: expect.objectContaining({ type: 'handoff.offered', actor: 'system' }),
    });
  });

  it('refuses a handoff to itself and malformed slugs, naming each field', () => {
    expect(offerHandoff({ ...offer, to_agent: 'criativo' })).toEqual({
      ok: false,
      reason: 'to_agent: an agent cannot hand off to itself (criativo)',
    });
    const result = offerHandoff({ ...offer, from_agent: 'Criativo', to_agent: '' });
    expect(!result.ok && result.reason).toMatch(
      /^from_agent: "Criativo" must be an agent slug .*; to_agent: "" must be an agent slug/,
    );
  });
});

describe('handoffFromEvent', () => {
  it('reads nothing from an event whose type disagrees with its payload status', () => {
    const payload = {
      v: 1,
      handoff_id: 'h-1',
      from_agent: 'criativo',
      to_agent: 'po',
      artifact_id: null,
      status: 'accepted',
    };
    expect(handoffFromEvent({ type: 'handoff.completed', session_id: 's', payload })).toBeNull();
    expect(handoffFromEvent({ type: 'handoff.accepted', session_id: 's', payload })).toMatchObject({
      status: 'accepted',
    });
  });
});
