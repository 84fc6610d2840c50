import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EventLog, HeadsObserver, SessionEvent } from '../store/index.ts';
import {
  refreshSessionView,
  sessionProjectId,
  type SessionView,
} from '../agents/runtime/session-view.ts';
import { snapshotText, viewFromSnapshot } from '../agents/runtime/session-view-snapshot.ts';
import { createSessionViews } from './session-views.ts';

/** An in-memory log with just what views read; enough to test caching and release without a database. */
function memoryLog(events: SessionEvent[]): EventLog & { reads: number } {
  const log = {
    reads: 0,
    append: async () => {
      throw new Error('not used');
    },
    appendWithin: async () => {
      throw new Error('not used');
    },
    read: async (_sessionId: string, options: { afterSeq?: number; limit?: number } = {}) => {
      log.reads += 1;
      return events
        .filter((event) => event.seq > (options.afterSeq ?? 0))
        .slice(0, options.limit ?? 1000);
    },
  };
  return log;
}

const event = (seq: number, type: string, payload: unknown): SessionEvent => ({
  id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
  session_id: 's1',
  seq,
  type,
  actor: 'user',
  payload,
  created_at: '2026-01-01T00:00:00.000Z',
});

describe('session views', () => {
  it('folds the log once, then only what was appended since', async () => {
    const events = [
      event(1, 'session.created', { v: 1 }),
      event(2, 'chat.message', { v: 1, text: 'hi' }),
    ];
    const log = memoryLog(events);
    const views = createSessionViews(log);
    expect((await views.load('s1')).state.last_seq).toBe(2);
    events.push(event(3, 'chat.message', { v: 1, text: 'again' }));
    const view = await views.load('s1');
    expect(view.state.last_seq).toBe(3);
    expect(view.state.history.map((entry) => entry.content)).toEqual(['hi', 'again']);
    expect(view.events).toHaveLength(3);
  });

  it('refreshes a view in place, copying nothing: the same view, state and arrays, only what was appended folded', async () => {
    const events = [
      event(1, 'session.created', { v: 1 }),
      event(2, 'chat.message', { v: 1, text: 'hi' }),
    ];
    const views = createSessionViews(memoryLog(events));
    const first = await views.load('s1');
    const { state, events: folded } = first;
    const history = state.history;
    events.push(
      event(3, 'chat.message', { v: 1, text: 'again' }),
      event(4, 'session.ended', { v: 1, reason: 'done' }),
    );
    const second = await views.load('s1');
    expect(second).toBe(first);
    expect(second.state).toBe(state);
    expect(second.state.history).toBe(history);
    expect(second.events).toBe(folded);
    expect(history.map((entry) => entry.content)).toEqual(['hi', 'again']);
    expect(second.state.ended_at_seq).toBe(4);
    // Refreshing again through another holder of the same view folds nothing twice.
    expect((await refreshSessionView(memoryLog(events), 's1', first)).state.history).toHaveLength(
      2,
    );
  });

  it('releases runtimes idle for longer than the limit, and rehydrates them from the log on next use', async () => {
    let now = 0;
    const log = memoryLog([event(1, 'session.created', { v: 1 })]);
    const views = createSessionViews(log, { idleMs: 1000, now: () => now });
    await views.load('s1');
    now = 999;
    expect(views.releaseIdle()).toBe(0);
    now = 1000;
    expect(views.releaseIdle()).toBe(1);
    expect(views.size()).toBe(0);
    expect((await views.load('s1')).state.last_seq).toBe(1);
  });

  it('folds each event once when lanes refresh the same view at the same time', async () => {
    const events = [
      event(1, 'session.created', { v: 1 }),
      event(2, 'chat.message', { v: 1, text: 'hi' }),
    ];
    const views = createSessionViews(memoryLog(events));
    const view = await views.load('s1');
    events.push(
      event(3, 'chat.message', { v: 1, text: 'a' }),
      event(4, 'chat.message', { v: 1, text: 'b' }),
    );
    // Both reads are in flight before either folds: the second must not fold seq 3 and 4 again.
    const [left, right] = await Promise.all([views.load('s1'), views.load('s1')]);
    expect(left).toBe(view);
    expect(right).toBe(view);
    expect(view.events.map((stored) => stored.seq)).toEqual([1, 2, 3, 4]);
    expect(view.state.history.map((entry) => entry.content)).toEqual(['hi', 'a', 'b']);
  });

  it('carries a view past its own append from what the append returned, reading the log only after a gap', async () => {
    const events = [event(1, 'session.created', { v: 1, project_id: 'p1' })];
    const log = memoryLog(events);
    const views = createSessionViews(log);
    const view = await views.load('s1');
    expect(sessionProjectId(view)).toBe('p1');
    expect(log.reads).toBe(1);
    const own = event(2, 'chat.message', { v: 1, text: 'mine' });
    events.push(own);
    expect(await views.afterAppend('s1', [own])).toBe(view);
    expect(log.reads).toBe(1);
    // Another lane appended seq 3 before this append (seq 4): the gap is read from the log.
    const theirs = event(3, 'chat.message', { v: 1, text: 'theirs' });
    const mine = event(4, 'chat.message', { v: 1, text: 'mine again' });
    events.push(theirs, mine);
    await views.afterAppend('s1', [mine]);
    expect(log.reads).toBe(2);
    expect(view.events.map((stored) => stored.seq)).toEqual([1, 2, 3, 4]);
    expect(view.state.history.map((entry) => entry.content)).toEqual([
      'mine',
      'theirs',
      'mine again',
    ]);
    // Already folded (a concurrent refresh took it first): nothing is folded twice, nothing read.
    await views.afterAppend('s1', [mine]);
    expect(log.reads).toBe(2);
    expect(view.events).toHaveLength(4);
  });

  it('keeps no view of a session that does not exist', async () => {
    const views = createSessionViews(memoryLog([]));
    const view = await views.load('nobody');
    expect(sessionProjectId(view)).toBeNull();
    expect(views.size()).toBe(0);
  });

  describe('peek: a view with no read while this process heard of nothing it lacks (ADR 0262)', () => {
    /** The process's notifications: what a test makes it hear, and whether it listens. */
    function heads() {
      const observers = new Set<HeadsObserver>();
      const control = {
        up: true,
        watchHeads(observer: HeadsObserver) {
          observers.add(observer);
          return () => observers.delete(observer);
        },
        listening: () => control.up,
        hear(seq: number) {
          if (control.up) for (const observer of observers) observer.heard('s1', seq);
        },
        lose() {
          control.up = false;
          for (const observer of observers) observer.deaf();
        },
      };
      return control;
    }

    it('is none without notifications, and none for a session never loaded', async () => {
      const events = [event(1, 'session.created', { v: 1 })];
      const plain = createSessionViews(memoryLog(events));
      await plain.load('s1');
      expect(plain.peek('s1')).toBeUndefined();
      expect(createSessionViews(memoryLog(events), { heads: heads() }).peek('s1')).toBeUndefined();
    });

    type Step =
      | { kind: 'appendHeard' }
      | { kind: 'appendUnheard' }
      | { kind: 'appendHeardDuringRead' }
      | { kind: 'ownAppend' }
      | { kind: 'ownAppendOvertaken' }
      | { kind: 'load' }
      | { kind: 'loseAndRestoreDuringRead' }
      | { kind: 'lose' }
      | { kind: 'restore' };
    const step: fc.Arbitrary<Step> = fc.oneof(
      ...(
        [
          'appendHeard',
          'appendUnheard',
          'appendHeardDuringRead',
          'ownAppend',
          'ownAppendOvertaken',
          'load',
          'loseAndRestoreDuringRead',
          'lose',
          'restore',
        ] as const
      ).map((kind) => fc.constant({ kind })),
    );

    it('never gives a view lacking an append it heard of, nor one not read since the connection came back; gives one after a quiet read', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(step, { maxLength: 40 }), async (steps) => {
          const events = [event(1, 'session.created', { v: 1 })];
          const log = memoryLog(events);
          let duringRead: (() => void) | null = null;
          const read = log.read;
          log.read = async (...args) => {
            const page = await read(...args);
            // Appended (and heard) after the read saw the log, before it returned.
            const hook = duringRead;
            duringRead = null;
            hook?.();
            return page;
          };
          const notifications = heads();
          const views = createSessionViews(log, { heads: notifications });
          const append = (text: string) => {
            const appended = event(events.length + 1, 'chat.message', { v: 1, text });
            events.push(appended);
            return appended;
          };
          /** The highest seq heard while listening. */
          let heard = 0;
          /** Whether a read or fold has brought the view since the connection was last lost and back. */
          let broughtSinceLoss = true;
          for (const { kind } of steps) {
            let quietRead = false;
            if (kind === 'appendHeard' || kind === 'appendHeardDuringRead') {
              const hear = () => {
                const appended = append('elsewhere');
                if (notifications.up) heard = Math.max(heard, appended.seq);
                notifications.hear(appended.seq);
              };
              if (kind === 'appendHeard') hear();
              else {
                duringRead = hear;
                await views.load('s1');
                broughtSinceLoss ||= notifications.up;
              }
            } else if (kind === 'appendUnheard') append('silently');
            else if (kind === 'ownAppend') {
              const appended = append('mine');
              await views.afterAppend('s1', [appended]);
              notifications.hear(appended.seq);
              broughtSinceLoss ||= notifications.up;
            } else if (kind === 'ownAppendOvertaken') {
              // Our append committed, then another one after it was heard before ours was folded.
              const mine = append('mine');
              const theirs = append('elsewhere');
              if (notifications.up) heard = Math.max(heard, theirs.seq);
              notifications.hear(theirs.seq);
              await views.afterAppend('s1', [mine]);
              notifications.hear(mine.seq);
              broughtSinceLoss ||= notifications.up;
            } else if (kind === 'loseAndRestoreDuringRead') {
              // The read spans a loss: what was appended while deaf may be past what it saw.
              duringRead = () => {
                notifications.lose();
                append('while deaf');
                notifications.up = true;
              };
              await views.load('s1');
              broughtSinceLoss = false;
            } else if (kind === 'load') {
              await views.load('s1');
              quietRead = notifications.up;
              broughtSinceLoss ||= notifications.up;
            } else if (kind === 'lose') {
              notifications.lose();
              broughtSinceLoss = false;
            } else notifications.up = true;
            const peeked = views.peek('s1');
            if (peeked !== undefined) {
              expect(peeked.state.last_seq).toBeGreaterThanOrEqual(heard);
              expect(broughtSinceLoss).toBe(true);
              expect(notifications.up).toBe(true);
            }
            if (quietRead) expect(peeked).toBeDefined();
          }
        }),
        { numRuns: 500 },
      );
    });
  });
});

describe('session views with snapshots (ADR 0426)', () => {
  const chat = (count: number) => [
    event(1, 'session.created', { v: 1 }),
    ...Array.from({ length: count - 1 }, (_, index) =>
      event(index + 2, 'chat.message', { v: 1, text: `m${index}` }),
    ),
  ];
  /** Snapshots kept in memory, as their text, counting reads and writes. */
  function memorySnapshots(options: { maxChars?: number; failLoads?: boolean } = {}) {
    const stored = new Map<string, { seq: number; text: string }>();
    const counts = { loads: 0, saves: 0, errors: 0 };
    const snapshots = {
      afterEvents: 10,
      onError: () => {
        counts.errors += 1;
      },
      load: async (sessionId: string) => {
        counts.loads += 1;
        if (options.failLoads) throw new Error('the database is gone');
        const row = stored.get(sessionId);
        return row === undefined ? null : viewFromSnapshot(row.text, sessionId, row.seq);
      },
      save: async (view: SessionView) => {
        counts.saves += 1;
        const text = snapshotText(view, options.maxChars);
        if (text === null) return null;
        stored.set(view.state.session_id!, { seq: view.state.last_seq, text });
        return view.state.last_seq;
      },
    };
    return { snapshots, stored, counts };
  }

  it('two first loads at once read the snapshot once, and the log only after it', async () => {
    const events = chat(30);
    const { snapshots, counts } = memorySnapshots();
    const first = createSessionViews(memoryLog(events), { snapshots });
    await first.load('s1');
    await first.saveSnapshots();
    events.push(event(31, 'chat.message', { v: 1, text: 'after' }));
    const log = memoryLog(events);
    const read: number[] = [];
    const restarted = createSessionViews(
      { ...log, read: (id, options) => (read.push(options?.afterSeq ?? 0), log.read(id, options)) },
      { snapshots },
    );
    const [left, right] = await Promise.all([restarted.load('s1'), restarted.load('s1')]);
    expect(counts.loads).toBe(2);
    expect(left).toBe(right);
    expect(read.every((afterSeq) => afterSeq >= 30)).toBe(true);
    expect(left.events.map((stored) => stored.seq)).toEqual(events.map((stored) => stored.seq));
  });

  it('folds the whole log when the snapshot cannot be read, and says so', async () => {
    const { snapshots, counts } = memorySnapshots({ failLoads: true });
    const views = createSessionViews(memoryLog(chat(30)), { snapshots });
    expect((await views.load('s1')).state.last_seq).toBe(30);
    expect(counts.errors).toBe(1);
  });

  it('does not try again a view too large to keep before it has grown by as much again', async () => {
    const events = chat(30);
    const { snapshots, counts, stored } = memorySnapshots({ maxChars: 100 });
    const views = createSessionViews(memoryLog(events), { snapshots });
    await views.load('s1');
    await views.saveSnapshots();
    await views.saveSnapshots();
    expect(counts.saves).toBe(1);
    expect(stored.size).toBe(0);
    events.push(
      ...chat(41)
        .slice(30)
        .map((later) => ({ ...later, id: `x${later.seq}` })),
    );
    await views.load('s1');
    await views.saveSnapshots();
    expect(counts.saves).toBe(2);
  });
});
