import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildSessionEvents,
  type EventSpec,
} from '../conversation/test-support/build-session-events.ts';
import { classifySessionEnd, SESSION_END_REASONS } from './session-end-reason.ts';

const message: EventSpec = { type: 'chat.message', actor: 'user', payload: { v: 1, text: 'hi' } };
const response: EventSpec = {
  type: 'agent.response',
  actor: 'criativo',
  payload: { v: 1, agent: 'criativo', text: 'hello' },
};
const budget: EventSpec = { type: 'budget.exceeded' };
const limit: EventSpec = { type: 'toolloop.limit_reached' };
const denied: EventSpec = { type: 'action.denied', payload: { v: 1, action_id: 'a1' } };
const reportBlocked: EventSpec = {
  type: 'tool.completed',
  payload: { v: 1, tool: 'report_blocked' },
};
const otherTool: EventSpec = { type: 'tool.completed', payload: { v: 1, tool: 'emit_artifact' } };
const brief: EventSpec = { type: 'artifact.product_brief' };
const accepted: EventSpec = { type: 'handoff.accepted' };
const completed: EventSpec = { type: 'handoff.completed' };

const classify = (...specs: EventSpec[]) =>
  classifySessionEnd(buildSessionEvents('session-1', specs));

describe('classifySessionEnd', () => {
  it.each([
    ['no events at all', 'abandoned', []],
    ['a chat the person left', 'abandoned', [message, response, message]],
    ['a refused call never answered again', 'budget', [message, response, message, budget]],
    ['a refusal the model recovered from', 'abandoned', [message, budget, response]],
    [
      'budget refused after a completed handoff',
      'budget',
      [brief, accepted, completed, message, budget],
    ],
    ['the tool loop at its limit', 'blocked', [message, response, limit]],
    ['a denied action', 'blocked', [message, response, denied, response]],
    ['the agent reporting itself blocked', 'blocked', [message, reportBlocked, response]],
    ['any other tool', 'abandoned', [message, otherTool, response]],
    ['a completed handoff', 'completed', [message, response, completed]],
    ['a brief and then an accepted handoff', 'completed', [brief, accepted]],
    ['an accepted handoff with no brief before it', 'abandoned', [accepted, brief]],
    ['a denial resolved by a later completion', 'completed', [denied, brief, accepted]],
    ['a completion followed by a tool loop at its limit', 'blocked', [brief, accepted, limit]],
  ] as const)('classifies %s as %s', (_case, reason, specs) => {
    expect(classify(...specs)).toBe(reason);
  });

  it('reads events by seq, whatever order they are given in', () => {
    const events = buildSessionEvents('session-1', [message, budget, response]);
    expect(classifySessionEnd([...events].reverse())).toBe('abandoned');
  });
});

describe('classifySessionEnd properties', () => {
  const signal = fc.constantFrom(
    message,
    response,
    budget,
    limit,
    denied,
    reportBlocked,
    otherTool,
    brief,
    accepted,
    completed,
  );
  const noise = fc.constantFrom<EventSpec>(
    message,
    otherTool,
    { type: 'agent.delta' },
    { type: 'token.usage' },
    { type: 'turn.started' },
  );

  it('always gives one of the four reasons', () => {
    fc.assert(
      fc.property(fc.array(signal), (specs) => {
        expect(SESSION_END_REASONS).toContain(classify(...specs));
      }),
    );
  });

  it('ignores events that are no signal, wherever they fall', () => {
    fc.assert(
      fc.property(fc.array(signal), fc.array(fc.tuple(fc.nat(), noise)), (specs, inserts) => {
        const noisy = [...specs];
        for (const [at, event] of inserts) noisy.splice(at % (noisy.length + 1), 0, event);
        expect(classify(...noisy)).toBe(classify(...specs));
      }),
    );
  });

  it('the last word wins: a final refusal is budget, a final block is blocked, a final completion is completed', () => {
    fc.assert(
      fc.property(fc.array(signal), (specs) => {
        expect(classify(...specs, budget)).toBe('budget');
        expect(classify(...specs, response, limit)).toBe('blocked');
        expect(classify(...specs, response, completed)).toBe('completed');
      }),
    );
  });
});
