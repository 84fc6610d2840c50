import { CRIATIVO_GREETINGS } from './greetings.ts';
import { describe, expect, it } from 'vitest';
import {
  buildSessionEvents,
  eventIdForSeq,
  type EventSpec,
} from './test-support/build-session-events.ts';
import type { ConversationCommand } from './commands.ts';
import { decide } from './decide.ts';
import { rehydrate } from './rehydrate.ts';

/** given: the session's log; when: a command; then: what `decide` answers. */
const given = (...specs: EventSpec[]) => ({
  when: (command: ConversationCommand) =>
    decide(command, rehydrate(buildSessionEvents('session-1', specs))),
});

const criativoStarted: EventSpec = {
  type: 'agent.activated',
  actor: 'user',
  payload: { v: 1, agent: 'criativo', handoff_id: null },
};
const readiness: EventSpec = { type: 'readiness.confirmed', actor: 'user', payload: { v: 1 } };
const ruleAt2: EventSpec = {
  type: 'artifact.business_rule',
  actor: 'criativo',
  payload: { v: 1, data: { title: 'T', statement: 'S' }, origin: [1] },
};
const handoff = (status: string, to = 'po'): EventSpec => ({
  type: `handoff.${status}`,
  payload: {
    v: 1,
    handoff_id: 'h-1',
    from_agent: 'criativo',
    to_agent: to,
    artifact_id: eventIdForSeq(3),
    status,
  },
});
const brief = {
  title: 'Clinic agenda',
  summary: 'Online booking',
  problem: 'Phones busy',
  audience: 'Small clinics',
  goals: ['Book without calling'],
};

describe('ActivateAgent', () => {
  it('lets the person start Criativo, who greets them in their language (English by default)', () => {
    expect(given().when({ type: 'ActivateAgent', agent: 'criativo', actor: 'user' })).toEqual({
      ok: true,
      events: [
        {
          type: 'agent.activated',
          actor: 'user',
          payload: {
            v: 1,
            agent: 'criativo',
            handoff_id: null,
            greeting: { language: 'en', text: CRIATIVO_GREETINGS.en },
          },
        },
      ],
    });
    const inPortuguese = given().when({
      type: 'ActivateAgent',
      agent: 'criativo',
      actor: 'user',
      language: 'pt',
    });
    expect(inPortuguese.ok && inPortuguese.events[0]!.payload).toMatchObject({
      greeting: { language: 'pt', text: CRIATIVO_GREETINGS.pt },
    });
  });

  it('refuses Criativo started by anyone but the person', () => {
    expect(given().when({ type: 'ActivateAgent', agent: 'criativo', actor: 'system' })).toEqual({
      ok: false,
      reason:
        'agent criativo is started only by the person (actor "user" or a person id), not by "system"',
    });
  });

  it('refuses an agent already active', () => {
    expect(
      given(criativoStarted).when({ type: 'ActivateAgent', agent: 'criativo', actor: 'user' }),
    ).toEqual({
      ok: false,
      reason: 'agent criativo is already active in this session (since seq 1)',
    });
  });

  it('refuses the PO while its handoff is only offered, and activates it once accepted', () => {
    const offered = given(criativoStarted, handoff('offered')).when({
      type: 'ActivateAgent',
      agent: 'po',
      actor: 'user',
    });
    expect(offered).toMatchObject({
      ok: false,
      reason: expect.stringContaining('handoff h-1 is offered'),
    });
    const accepted = given(criativoStarted, handoff('offered'), handoff('accepted')).when({
      type: 'ActivateAgent',
      agent: 'po',
      actor: 'user',
    });
    expect(accepted).toEqual({
      ok: true,
      events: [
        {
          type: 'agent.activated',
          actor: 'user',
          payload: { v: 1, agent: 'po', handoff_id: 'h-1' },
        },
      ],
    });
  });

  it('refuses an agent nobody handed off to', () => {
    expect(
      given(criativoStarted).when({ type: 'ActivateAgent', agent: 'arquiteto', actor: 'user' }),
    ).toMatchObject({
      ok: false,
      reason: expect.stringContaining('agent arquiteto has no handoff addressed to it'),
    });
  });
});

describe('StartTurn and FailTurn', () => {
  const startTurn = (kind: 'message' | 'consolidation' = 'message'): ConversationCommand => ({
    type: 'StartTurn',
    agent: 'criativo',
    turn_id: 't2',
    kind,
  });
  const running: EventSpec = {
    type: 'turn.started',
    actor: 'criativo',
    payload: { v: 1, agent: 'criativo', turn_id: 't1', kind: 'message' },
  };

  it('starts a turn of an active agent', () => {
    expect(given(criativoStarted).when(startTurn())).toEqual({
      ok: true,
      events: [
        {
          type: 'turn.started',
          actor: 'criativo',
          payload: { v: 1, agent: 'criativo', turn_id: 't2', kind: 'message' },
        },
      ],
    });
  });

  it.each([
    [
      'the agent is not active',
      [],
      'agent criativo is not active in this session; a turn runs only for an active agent',
    ],
    [
      'its lane has a turn in progress',
      [criativoStarted, running],
      'turn t1 of agent criativo is in progress (started at seq 2); turns of one agent run one at a time',
    ],
  ])('refuses a turn when %s', (_case, specs, reason) => {
    expect(given(...specs).when(startTurn())).toEqual({ ok: false, reason });
  });

  it('runs a consolidation turn only after readiness', () => {
    expect(given(criativoStarted).when(startTurn('consolidation'))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('only after the person confirms readiness'),
    });
    expect(given(criativoStarted, readiness).when(startTurn('consolidation'))).toMatchObject({
      ok: true,
    });
  });

  it("starts a turn in one agent's lane while another agent's lane has a turn in progress", () => {
    const poActive: EventSpec = {
      type: 'agent.activated',
      payload: { v: 1, agent: 'po', handoff_id: null },
    };
    expect(
      given(criativoStarted, poActive, running).when({
        type: 'StartTurn',
        agent: 'po',
        turn_id: 't2',
        kind: 'message',
      }),
    ).toEqual({
      ok: true,
      events: [
        {
          type: 'turn.started',
          actor: 'po',
          payload: { v: 1, agent: 'po', turn_id: 't2', kind: 'message' },
        },
      ],
    });
  });

  it('fails only the turn in progress, e.g. one found unfinished after a restart', () => {
    expect(
      given(criativoStarted, running).when({
        type: 'FailTurn',
        turn_id: 't1',
        reason: 'interrupted',
      }),
    ).toEqual({
      ok: true,
      events: [
        {
          type: 'turn.failed',
          actor: 'system',
          payload: { v: 1, turn_id: 't1', agent: 'criativo', reason: 'interrupted' },
        },
      ],
    });
    expect(given(criativoStarted).when({ type: 'FailTurn', turn_id: 't1', reason: 'x' })).toEqual({
      ok: false,
      reason: 'turn t1 is not in progress (no turn is in progress)',
    });
  });
});

describe('ConfirmReadiness', () => {
  it('records the person pressing "Estou pronto para produzir"', () => {
    expect(given(criativoStarted).when({ type: 'ConfirmReadiness', actor: 'user' })).toEqual({
      ok: true,
      events: [{ type: 'readiness.confirmed', actor: 'user', payload: { v: 1 } }],
    });
  });

  it.each([
    [
      'the model asks for it',
      [criativoStarted],
      'criativo',
      'readiness is confirmed only by the person (actor "user" or a person id), not by "criativo"',
    ],
    [
      'it was already confirmed',
      [criativoStarted, readiness],
      'user',
      'readiness was already confirmed in this session (seq 2) and its product brief is not consolidated yet',
    ],
    [
      'Criativo is not active',
      [],
      'user',
      'readiness needs criativo active in this session; start criativo first',
    ],
  ])('refuses when %s', (_case, specs, actor, reason) => {
    expect(given(...specs).when({ type: 'ConfirmReadiness', actor })).toEqual({
      ok: false,
      reason,
    });
  });
});

describe('RecordProductBrief — the brief guard', () => {
  const record = (data: unknown): ConversationCommand => ({
    type: 'RecordProductBrief',
    agent: 'criativo',
    brief: data,
  });

  it('refuses a brief before readiness, whatever the model said', () => {
    const modelClaims: EventSpec = {
      type: 'agent.response',
      payload: { v: 1, agent: 'criativo', text: 'The person is ready; here is the brief.' },
    };
    expect(given(criativoStarted, modelClaims).when(record(brief))).toEqual({
      ok: false,
      reason:
        'a product brief exists only after the person confirms readiness ("Estou pronto para produzir"); readiness is not confirmed in this session',
    });
  });

  it('appends the brief after readiness, citing business rules of the session', () => {
    const result = given(criativoStarted, ruleAt2, readiness).when(
      record({ ...brief, business_rule_refs: [eventIdForSeq(2)] }),
    );
    expect(result).toEqual({
      ok: true,
      events: [
        {
          type: 'artifact.product_brief',
          actor: 'criativo',
          payload: {
            v: 1,
            data: {
              ...brief,
              version: 1,
              business_rule_refs: [eventIdForSeq(2)],
              out_of_scope: [],
              open_questions: [],
            },
          },
        },
      ],
    });
  });

  it('refuses a brief that does not match its schema, naming the paths', () => {
    expect(given(criativoStarted, readiness).when(record({ ...brief, goals: [] }))).toEqual({
      ok: false,
      reason: 'product_brief data.goals: must have at least 1 item',
    });
  });

  it('refuses a brief citing a business rule the session does not have', () => {
    expect(
      given(criativoStarted, ruleAt2, readiness).when(
        record({ ...brief, business_rule_refs: [eventIdForSeq(2), 'made-up'] }),
      ),
    ).toEqual({
      ok: false,
      reason:
        'product_brief data.business_rule_refs[1]: no business rule with event id made-up in this session',
    });
  });
});

describe('OfferHandoff', () => {
  const briefAt3: EventSpec = {
    type: 'artifact.product_brief',
    actor: 'criativo',
    payload: { v: 1, data: brief },
  };
  const offer = (artifact_id: string | null = eventIdForSeq(3)): ConversationCommand => ({
    type: 'OfferHandoff',
    handoff_id: 'h-1',
    from_agent: 'criativo',
    to_agent: 'po',
    artifact_id,
    actor: 'system',
  });

  it('offers the brief to the PO', () => {
    expect(given(criativoStarted, readiness, briefAt3).when(offer())).toEqual({
      ok: true,
      events: [
        {
          type: 'handoff.offered',
          actor: 'system',
          payload: {
            v: 1,
            handoff_id: 'h-1',
            from_agent: 'criativo',
            to_agent: 'po',
            artifact_id: eventIdForSeq(3),
            status: 'offered',
          },
        },
      ],
    });
  });

  it.each([
    [
      'from an inactive agent',
      [],
      undefined,
      'agent criativo is not active in this session; only an active agent hands off work',
    ],
    [
      'of an artifact the session lacks',
      [criativoStarted],
      'nope',
      'artifact_id: no artifact event nope in this session',
    ],
    [
      'twice while open',
      [criativoStarted, readiness, briefAt3, handoff('offered')],
      undefined,
      'handoff h-1 from criativo to po for this artifact is already offered',
    ],
  ])('refuses a handoff %s', (_case, specs, artifactId, reason) => {
    expect(given(...specs).when(offer(artifactId))).toEqual({ ok: false, reason });
  });
});

describe('ApproveAction and DenyAction', () => {
  const proposed: EventSpec = {
    type: 'action.proposed',
    actor: 'po',
    payload: { v: 1, action_id: 'a1', agent: 'po', tool: 'run', args: {} },
  };

  it('records the person approving or denying a pending action', () => {
    expect(given(proposed).when({ type: 'ApproveAction', action_id: 'a1', actor: 'user' })).toEqual(
      {
        ok: true,
        events: [
          {
            type: 'action.approved',
            actor: 'user',
            payload: { v: 1, action_id: 'a1', agent: 'po' },
          },
        ],
      },
    );
    expect(
      given(proposed).when({
        type: 'DenyAction',
        action_id: 'a1',
        actor: 'user',
        reason: ' too risky ',
      }),
    ).toEqual({
      ok: true,
      events: [
        {
          type: 'action.denied',
          actor: 'user',
          payload: { v: 1, action_id: 'a1', agent: 'po', reason: 'too risky' },
        },
      ],
    });
  });

  it('refuses answers from an agent, and answers to an action no longer pending', () => {
    expect(given(proposed).when({ type: 'ApproveAction', action_id: 'a1', actor: 'po' })).toEqual({
      ok: false,
      reason: 'only the person (actor "user" or a person id) approves a proposed action, not "po"',
    });
    const personId = '0f9d6a52-3c1e-4b7a-9d2e-6f1a2b3c4d5e';
    expect(
      given(proposed).when({ type: 'ApproveAction', action_id: 'a1', actor: personId }),
    ).toEqual({
      ok: true,
      events: [
        {
          type: 'action.approved',
          actor: personId,
          payload: { v: 1, action_id: 'a1', agent: 'po' },
        },
      ],
    });
    const denied: EventSpec = { type: 'action.denied', payload: { v: 1, action_id: 'a1' } };
    expect(
      given(proposed, denied).when({ type: 'ApproveAction', action_id: 'a1', actor: 'user' }),
    ).toEqual({
      ok: false,
      reason: 'action a1 is not pending in this session',
    });
  });
});

describe('PostMessage after the session ended', () => {
  const ended: EventSpec = {
    type: 'session.ended',
    actor: 'user',
    payload: { v: 1, reason: 'concluded' },
  };
  it('refuses, naming the rule and the seq the session ended at; before the end it is stored', () => {
    const message = { type: 'PostMessage', text: 'one more thing', to: 'criativo' } as const;
    expect(given(criativoStarted).when(message).ok).toBe(true);
    expect(given(criativoStarted, ended, ended).when(message)).toEqual({
      ok: false,
      reason: 'this session ended at seq 2; open a new session to go on',
      code: 'session_ended',
    });
  });
});
