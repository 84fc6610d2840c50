import { performance } from 'node:perf_hooks';
import type { StoredEvent } from '../../web/src/api/types.ts';
import { foldSession } from '../../web/src/session/fold/fold-session.ts';
import { continueFold, type SessionFold } from '../../web/src/session/fold/incremental-fold.ts';
import { mergeEvents } from '../../web/src/session/stream-reducer.ts';
import type { BenchReport } from '../lib/bench-report.ts';
import { percentile, round } from '../lib/latency.ts';

// BENCH_FOLD_SIZES=1000,5000 runs fewer sizes (a quick look); the results file is written from the full run.
const SIZES = (process.env.BENCH_FOLD_SIZES ?? '1000,5000,20000,50000').split(',').map(Number);
const NEW_EVENTS = 60;
const AGENTS = ['criativo', 'po', 'arquiteto', 'dev:api', 'dev:web', 'dev:db'];

/**
 * ADR 0231: what the session page spends on one more event of the stream when the log already holds
 * 1,000 / 5,000 / 20,000 / 50,000 events — the incremental fold (apply the new event to the draft the earlier
 * ones left, then the view) beside the old way, folding the whole log again, interleaved event by event on
 * the same log. Each event is added as the page adds it (`mergeEvents`, the stream reducer's step).
 */
export async function run(): Promise<BenchReport> {
  const rows: Array<Record<string, string | number>> = [];
  for (const size of SIZES) {
    const events = syntheticLog(size + NEW_EVENTS);
    const start = events.slice(0, size);
    let incrementalHeld = mergeEvents([], start);
    let fold: SessionFold = continueFold(null, incrementalHeld);
    let wholeHeld = incrementalHeld;
    const incremental: Sample[] = [];
    const whole: Sample[] = [];
    for (const event of events.slice(size)) {
      let began = performance.now();
      incrementalHeld = mergeEvents(incrementalHeld, [event]);
      const appended = performance.now();
      fold = continueFold(fold, incrementalHeld);
      incremental.push({
        append: appended - began,
        fold: performance.now() - appended,
        applied: fold.applied,
      });
      began = performance.now();
      wholeHeld = mergeEvents(wholeHeld, [event]);
      const wholeAppended = performance.now();
      const view = foldSession(wholeHeld);
      whole.push({
        append: wholeAppended - began,
        fold: performance.now() - wholeAppended,
        applied: wholeHeld.length,
      });
      if (view.lastSeq !== fold.view.lastSeq) throw new Error('the two folds disagree');
    }
    rows.push(row(size, 'incremental fold (new)', incremental));
    rows.push(row(size, 'whole log re-folded (baseline)', whole));
  }
  return {
    name: 'session-fold',
    rows,
    notes: [
      `Each row: the ${NEW_EVENTS} events after the first <log size> (a synthetic line: messages, turns with tool calls, artifacts, handoffs, approvals, ${AGENTS.length} agents), one at a time.`,
      'events applied = how many events the fold ran through for one new event: 1 for the incremental fold whatever the log, the whole log for the baseline.',
      'fold = continueFold (new) or foldSession (baseline) for one new event, view included. The incremental fold still grows a little: the view sorts the actions and backlog items and looks at each agent (their number, not the log length).',
      "stream append = mergeEvents, the stream reducer's step before either fold: it copies the events array (a new array for React), so it grows with the log in both rows.",
    ],
  };
}

type Sample = { append: number; fold: number; applied: number };

function row(size: number, variant: string, samples: Sample[]) {
  const fold = samples.map((sample) => sample.fold);
  const append = samples.map((sample) => sample.append);
  return {
    'log size': size,
    variant,
    'events applied per new event': round(
      samples.reduce((sum, sample) => sum + sample.applied, 0) / samples.length,
      1,
    ),
    'fold p50 ms': round(percentile(fold, 50)),
    'fold p95 ms': round(percentile(fold, 95)),
    'stream append p50 ms': round(percentile(append, 50)),
  };
}

/** A session's log as the line writes it: turns of each agent with tool calls, artifacts, handoffs, actions. */
export function syntheticLog(count: number): StoredEvent[] {
  const shapes: Array<{ type: string; actor: string; payload: unknown }> = [
    { type: 'session.created', actor: 'system', payload: { v: 1 } },
    ...AGENTS.map((agent) => ({ type: 'agent.activated', actor: 'system', payload: { agent } })),
  ];
  for (let turn = 0; shapes.length < count; turn += 1) {
    const agent = AGENTS[turn % AGENTS.length]!;
    const turnId = `turn-${turn}`;
    const call = `call-${turn}`;
    shapes.push(
      {
        type: 'chat.message',
        actor: 'user',
        payload: { v: 1, text: `Message ${turn}`, to: agent },
      },
      { type: 'turn.started', actor: agent, payload: { agent, turn_id: turnId, kind: 'message' } },
      {
        type: 'agent.response',
        actor: agent,
        payload: {
          agent,
          turn_id: turnId,
          text: 'Looking at it.',
          tool_calls: [{ id: call, name: 'emit_artifact' }],
        },
      },
      turn % 3 === 0
        ? {
            type: 'artifact.task',
            actor: agent,
            payload: { data: { id: `T${turn % 200}`, story_id: 'S1', title: `Task ${turn}` } },
          }
        : {
            type: 'artifact.business_rule',
            actor: agent,
            payload: { data: { title: `Rule ${turn}`, statement: 'Before 6 a.m.' }, origin: [2] },
          },
      {
        type: 'tool.completed',
        actor: agent,
        payload: { agent, tool_call_id: call, tool: 'emit_artifact', ok: true, args: {} },
      },
      {
        type: 'agent.response',
        actor: agent,
        payload: { agent, turn_id: turnId, text: `Done with turn ${turn}: **recorded**.` },
      },
    );
    if (turn % 10 === 0)
      shapes.push(
        {
          type: 'handoff.offered',
          actor: agent,
          payload: { handoff_id: `h${turn}`, from_agent: agent, to_agent: 'po' },
        },
        { type: 'handoff.accepted', actor: 'user', payload: { handoff_id: `h${turn}` } },
        {
          type: 'action.proposed',
          actor: agent,
          payload: {
            action_id: `a${turn}`,
            agent,
            tool: 'terminal',
            args: { command: 'npm test' },
          },
        },
        { type: 'action.approved', actor: 'user', payload: { action_id: `a${turn}` } },
      );
  }
  return shapes.slice(0, count).map((shape, index) => ({
    ...shape,
    id: `event-${index + 1}`,
    session_id: 'bench',
    seq: index + 1,
    created_at: '2026-01-01T00:00:00Z',
  }));
}
