import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../web/src/api/types.ts';
import { foldSession } from '../../web/src/session/fold/fold-session.ts';
import { continueFold, type SessionFold } from '../../web/src/session/fold/incremental-fold.ts';
import { mergeEvents } from '../../web/src/session/stream-reducer.ts';

/** Small pools, so generated events refer to each other: turns, tool calls, handoffs, actions, blocks. */
const agent = fc.constantFrom('criativo', 'po', 'arquiteto', 'dev:api', 'dev:web');
const turnId = fc.constantFrom('t1', 't2', 't3');
const callId = fc.constantFrom('c1', 'c2', 'c3');
const handoffId = fc.constantFrom('h1', 'h2');
const actionId = fc.constantFrom('a1', 'a2');
const tool = fc.constantFrom('emit_artifact', 'finish_task', 'report_blocked', 'terminal');
const words = fc.constantFrom('', 'Bread at dawn', 'Recording.', '## Done');
const version = fc.integer({ min: 0, max: 3 });
const smallSeq = fc.integer({ min: 0, max: 30 });

type Shape = { type: string; actor: string; payload: unknown };
const shape = (
  type: string,
  payload: fc.Arbitrary<unknown>,
  actor: fc.Arbitrary<string> = fc.constant('system'),
) => fc.record({ type: fc.constant(type), actor, payload }) as fc.Arbitrary<Shape>;

/** One event of any kind the page folds, with payloads sometimes missing fields or of the wrong shape. */
const eventShape: fc.Arbitrary<Shape> = fc.oneof(
  shape('session.created', fc.constant({ v: 1 })),
  shape('chat.message', fc.record({ text: words, to: fc.option(agent) }), fc.constant('user')),
  shape('agent.activated', fc.record({ agent })),
  shape('turn.started', fc.record({ agent, turn_id: turnId, kind: fc.constantFrom('message') })),
  shape(
    'agent.response',
    fc.record(
      {
        agent,
        turn_id: turnId,
        text: words,
        tool_calls: fc.array(fc.record({ id: callId, name: tool }), { maxLength: 2 }),
      },
      { requiredKeys: ['agent', 'turn_id', 'text'] },
    ),
  ),
  shape(
    'tool.completed',
    fc.record({
      agent,
      tool_call_id: fc.option(callId),
      tool,
      ok: fc.boolean(),
      args: fc.record({ modulo: words, falta: words, task_id: fc.constantFrom('T1', 'T2') }),
    }),
  ),
  shape('turn.failed', fc.record({ agent, turn_id: turnId, reason: words, message: words })),
  shape('toolloop.limit_reached', fc.record({ agent, turn_id: turnId, ceiling: smallSeq })),
  shape('budget.exceeded', fc.record({ agent, max_tokens: smallSeq, spent_tokens: smallSeq })),
  shape('readiness.confirmed', fc.constant({ v: 1 })),
  shape('context.compacted', fc.record({ agent, through_seq: smallSeq, summary: words })),
  shape('context.compaction_failed', fc.record({ agent, reason: words, left_out: smallSeq })),
  shape(
    'artifact.business_rule',
    fc.record({ data: fc.record({ title: words, statement: words }), origin: fc.array(smallSeq) }),
  ),
  shape('artifact.product_brief', fc.record({ data: fc.record({ title: words, version }) })),
  shape(
    'artifact.epic',
    fc.record({ data: fc.record({ id: fc.constantFrom('E1', 'E2'), title: words }) }),
  ),
  shape(
    'artifact.story',
    fc.record({ data: fc.record({ id: fc.constantFrom('S1'), epic_id: fc.constant('E1') }) }),
  ),
  shape(
    'artifact.task',
    fc.record({ data: fc.record({ id: fc.constantFrom('T1', 'T2'), module: fc.option(words) }) }),
  ),
  shape(
    'artifact.module_map',
    fc.record({
      data: fc.record({ version, modules: fc.constant([{ name: 'api', dependsOn: [] }]) }),
    }),
  ),
  shape(
    'artifact.module_contracts',
    fc.record(
      { data: fc.record({ version, contratos: fc.constant([{ modulo: 'api', expoe: [] }]) }) },
      { requiredKeys: [] },
    ),
  ),
  shape('artifact.c4_context', fc.record({ data: fc.record({ version }) })),
  shape(
    'handoff.offered',
    fc.record({ handoff_id: handoffId, from_agent: agent, to_agent: agent }),
  ),
  fc
    .record({
      status: fc.constantFrom('accepted', 'completed', 'rejected'),
      handoff_id: handoffId,
      reason: fc.option(words),
    })
    .map(({ status, ...payload }) => ({ type: `handoff.${status}`, actor: 'user', payload })),
  shape(
    'action.proposed',
    fc.record({ action_id: actionId, agent, tool, tool_call_id: callId, args: fc.constant({}) }),
  ),
  fc
    .record({ type: fc.constantFrom('action.approved', 'action.denied'), action_id: actionId })
    .map(({ type, ...payload }) => ({ type, actor: 'user', payload })),
  shape(
    'dev.blocked',
    fc.record({ agent, module: words, modulo: words, falta: words }, { requiredKeys: [] }),
  ),
  shape('arquiteto.block_answered', fc.record({ block_seq: smallSeq })),
  shape('dev.unblocked', fc.record({ block_seq: smallSeq })),
  shape('something.new', fc.anything()),
  shape('chat.message', fc.constantFrom(null, 'text', 42, [])),
);

const log = (shapes: Shape[]): StoredEvent[] =>
  shapes.map((event, index) => ({
    ...event,
    id: `e${index + 1}`,
    session_id: 's',
    seq: index + 1,
    created_at: '2026-01-01T00:00:00Z',
  }));

/** Cut points splitting a log into chunks (some empty), as the stream delivers them. */
const chunked = fc
  .array(eventShape, { maxLength: 60 })
  .map(log)
  .chain((events) =>
    fc
      .uniqueArray(fc.integer({ min: 0, max: events.length }), { maxLength: 12 })
      .map((cuts) => ({ events, cuts: [...cuts].sort((a, b) => a - b) })),
  );

const chunks = (events: StoredEvent[], cuts: number[]) =>
  [0, ...cuts, events.length].slice(1).map((end, index, ends) => {
    const start = index === 0 ? 0 : ends[index - 1]!;
    return events.slice(start, end);
  });

describe('the session page folds the stream incrementally', () => {
  it('equals folding the whole log at once, after every chunk, in any chunking', () => {
    fc.assert(
      fc.property(chunked, ({ events, cuts }) => {
        let held: StoredEvent[] = [];
        let fold: SessionFold | null = null;
        for (const chunk of chunks(events, cuts)) {
          held = mergeEvents(held, chunk);
          fold = continueFold(fold, held);
          expect(fold.view).toEqual(foldSession(held));
        }
        expect(continueFold(fold, events).view).toEqual(foldSession(events));
      }),
      { numRuns: 300 },
    );
  });

  it('starts over when an event arrives out of order (sorted in) or the log is another one, and still equals the whole fold', () => {
    fc.assert(
      fc.property(
        fc.array(eventShape, { minLength: 2, maxLength: 40 }).map(log),
        fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
        (events, late) => {
          // Events marked late arrive after all the others, so mergeEvents sorts them into place.
          const onTime = events.filter((_, index) => !late[index]);
          const lateOnes = events.filter((_, index) => late[index]);
          let held: StoredEvent[] = [];
          let fold: SessionFold | null = null;
          for (const event of [...onTime, ...lateOnes]) {
            held = mergeEvents(held, [event]);
            fold = continueFold(fold, held);
            expect(fold.view).toEqual(foldSession(held));
          }
          expect(held).toEqual(events);
          const other = log(events.map(({ type, actor, payload }) => ({ type, actor, payload })));
          expect(continueFold(fold, other.slice(0, 1)).view).toEqual(
            foldSession(other.slice(0, 1)),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('applies each new event once, however long the log already is; a full re-fold applies them all', () => {
    const events = log(
      Array.from({ length: 3000 }, (_, index) => ({
        type: 'chat.message',
        actor: 'user',
        payload: { v: 1, text: `message ${index}` },
      })),
    );
    let held: StoredEvent[] = [];
    let fold: SessionFold | null = null;
    const applied: number[] = [];
    for (const event of events) {
      held = mergeEvents(held, [event]);
      fold = continueFold(fold, held);
      applied.push(fold.applied);
    }
    expect(new Set(applied)).toEqual(new Set([1]));
    expect(fold!.view.chat).toHaveLength(3000);
    // The first load folds what it was given once; the same events in a new array add nothing; events read
    // again (new objects: a reload) start over.
    expect(continueFold(null, events).applied).toBe(3000);
    expect(continueFold(fold, [...events]).applied).toBe(0);
    expect(
      continueFold(
        fold,
        events.map((event) => ({ ...event })),
      ).applied,
    ).toBe(3000);
    expect(continueFold(fold, held)).toBe(fold);
  });

  it('gives a new view for every added event, so the page renders again', () => {
    const events = log([
      { type: 'chat.message', actor: 'user', payload: { v: 1, text: 'one' } },
      { type: 'chat.message', actor: 'user', payload: { v: 1, text: 'two' } },
    ]);
    const first = continueFold(null, events.slice(0, 1));
    expect(first.view.chat.map((item) => item.seq)).toEqual([1]);
    const second = continueFold(first, events);
    expect(second.view).not.toBe(first.view);
    expect(second.view.lastSeq).toBe(2);
    expect(second.view.chat.map((item) => item.seq)).toEqual([1, 2]);
  });
});
