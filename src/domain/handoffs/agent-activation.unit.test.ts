import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canActivate, USER_STARTED_AGENTS } from './agent-activation.ts';
import type { Handoff } from './handoff.ts';
import { agentSlugArbitrary, handoffArbitrary } from './test-support/handoff-arbitrary.ts';

const toPo = (id: string, status: Handoff['status']): Handoff => ({
  id,
  session_id: 'session-1',
  from_agent: 'criativo',
  to_agent: 'po',
  artifact_id: 'brief',
  status,
});

describe('canActivate', () => {
  it('lets the person start Criativo with no handoff at all', () => {
    expect(canActivate('criativo', [])).toEqual({ allowed: true });
  });

  it('activates the PO by the accepted handoff addressed to it', () => {
    expect(canActivate('po', [toPo('h-1', 'rejected'), toPo('h-2', 'accepted')])).toEqual({
      allowed: true,
      handoff: toPo('h-2', 'accepted'),
    });
  });

  it('refuses an agent with no handoff, stating the rule', () => {
    expect(canActivate('arquiteto', [toPo('h-1', 'accepted')])).toEqual({
      allowed: false,
      reason:
        'agent arquiteto has no handoff addressed to it in this session; only an accepted handoff addressed to it activates an agent (criativo excepted)',
    });
  });

  it('refuses an agent whose handoffs are not accepted, listing their statuses', () => {
    const result = canActivate('po', [toPo('h-1', 'offered'), toPo('h-2', 'completed')]);
    expect(result).toMatchObject({ allowed: false });
    expect(!result.allowed && result.reason).toContain(
      '(handoff h-1 is offered, handoff h-2 is completed)',
    );
  });
});

describe('canActivate properties', () => {
  const notUserStarted = agentSlugArbitrary.filter((slug) => !USER_STARTED_AGENTS.has(slug));

  it('allows an agent iff an accepted handoff addresses it, and names that handoff', () => {
    fc.assert(
      fc.property(
        notUserStarted,
        fc.array(handoffArbitrary, { maxLength: 8 }),
        (slug, handoffs) => {
          const decision = canActivate(slug, handoffs);
          const expected = handoffs.some(
            (handoff) => handoff.to_agent === slug && handoff.status === 'accepted',
          );
          expect(decision.allowed).toBe(expected);
          if (decision.allowed)
            expect(decision.handoff).toMatchObject({ to_agent: slug, status: 'accepted' });
        },
      ),
    );
  });

  it('user-started agents are allowed whatever the handoffs', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...USER_STARTED_AGENTS),
        fc.array(handoffArbitrary, { maxLength: 8 }),
        (slug, handoffs) => {
          expect(canActivate(slug, handoffs)).toEqual({ allowed: true });
        },
      ),
    );
  });

  it('handoffs addressed to other agents never change the decision', () => {
    fc.assert(
      fc.property(
        notUserStarted,
        fc.array(handoffArbitrary, { maxLength: 6 }),
        fc.array(handoffArbitrary, { maxLength: 6 }),
        (slug, mine, others) => {
          const addressedToOthers = others.filter((handoff) => handoff.to_agent !== slug);
          expect(canActivate(slug, [...addressedToOthers, ...mine]).allowed).toBe(
            canActivate(slug, mine).allowed,
          );
        },
      ),
    );
  });
});
