import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../web/src/api/types.ts';
import { foldSession } from '../../web/src/session/fold/fold-session.ts';
import { lineStage } from '../../web/src/session/fold/line-stage.ts';

const BRIEF = { title: 'Bakery', summary: 's', problem: 'p', audience: 'a', goals: ['g'] };
const STEPS: Array<[type: string, payload: unknown, stage: string]> = [
  ['agent.activated', { v: 1, agent: 'criativo', handoff_id: null }, 'idea'],
  ['artifact.product_brief', { v: 1, data: BRIEF }, 'brief'],
  [
    'artifact.epic',
    {
      v: 1,
      data: {
        id: 'EP-1',
        title: 'Subscriptions',
        description: 'd',
        acceptance_criteria: [],
        business_rule_refs: [],
      },
    },
    'backlog',
  ],
  [
    'artifact.module_map',
    {
      v: 1,
      data: {
        version: 1,
        modules: [{ name: 'api', stack: 'Node', responsibility: 'r', dependsOn: [] }],
      },
    },
    'architecture',
  ],
  ['agent.activated', { v: 1, agent: 'dev:api', handoff_id: 'h-api' }, 'developers'],
  [
    'handoff.completed',
    {
      v: 1,
      handoff_id: 'h-api',
      from_agent: 'arquiteto',
      to_agent: 'dev:api',
      artifact_id: 'x',
      status: 'completed',
    },
    'merged',
  ],
];

describe('where the session is on the line', () => {
  it('moves Idea → Brief → Backlog → Architecture → Developers → Merged as the events arrive', () => {
    const events: StoredEvent[] = [];
    const stages = STEPS.map(([type, payload], index) => {
      events.push({
        id: `e${index + 1}`,
        session_id: 's',
        seq: index + 1,
        type,
        actor: 'system',
        payload,
        created_at: '',
      });
      return lineStage(foldSession(events));
    });
    expect(stages).toEqual(STEPS.map(([, , stage]) => stage));
  });
});
