import fc from 'fast-check';
import { HANDOFF_STATUSES, type Handoff } from '../handoff.ts';

/** Test support: slugs from a small roster, so generated handoffs often address the same agent. */
export const agentSlugArbitrary = fc.constantFrom(
  'criativo',
  'po',
  'arquiteto',
  'dev:billing',
  'ux-designer',
);

/** Test support: any handoff of one session, in any status. */
export const handoffArbitrary: fc.Arbitrary<Handoff> = fc.record({
  id: fc.uuid(),
  session_id: fc.constant('session-1'),
  from_agent: agentSlugArbitrary,
  to_agent: agentSlugArbitrary,
  artifact_id: fc.option(fc.uuid(), { nil: null }),
  status: fc.constantFrom(...HANDOFF_STATUSES),
});
