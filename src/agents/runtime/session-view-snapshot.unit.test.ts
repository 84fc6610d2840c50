import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rehydrate, type SessionEvent } from '../../domain/conversation/index.ts';
import { sessionLogArbitrary } from '../../domain/conversation/test-support/session-log-arbitrary.ts';
import type { EventLog } from '../../store/index.ts';
import { FOLD_ENTRIES, foldVersion, sourceFingerprint } from './fold-version.ts';
import { refreshSessionView, type SessionView } from './session-view.ts';
import { snapshotText, viewFromSnapshot } from './session-view-snapshot.ts';

/** A log as the store gives it: payloads are JSON (jsonb holds no -0, no undefined). */
const stored = (log: SessionEvent[]): SessionEvent[] => JSON.parse(JSON.stringify(log));

/** An in-memory log with what a view reads, counting the events it gives. */
function memoryLog(events: readonly SessionEvent[]): EventLog & { given: number } {
  const log = {
    given: 0,
    append: () => Promise.reject(new Error('not used')),
    appendWithin: () => Promise.reject(new Error('not used')),
    read: async (_sessionId: string, options: { afterSeq?: number; limit?: number } = {}) => {
      const page = events
        .filter((event) => event.seq > (options.afterSeq ?? 0))
        .slice(0, options.limit ?? 1000);
      log.given += page.length;
      return page;
    },
  };
  return log;
}

const plain = (view: SessionView) => ({ state: view.state, events: view.events });

describe('a snapshot of a session view', () => {
  it("gives, for every k, the whole log's view: the snapshot at k and a fold of the events after k", async () => {
    await fc.assert(
      fc.asyncProperty(
        sessionLogArbitrary.filter((log) => log.length > 0),
        async (generated) => {
          const log = stored(generated);
          const whole = await refreshSessionView(memoryLog(log), 'session-1');
          expect(whole.state).toStrictEqual(rehydrate(log));
          for (let k = 1; k <= log.length; k += 1) {
            const atK = await refreshSessionView(memoryLog(log.slice(0, k)), 'session-1');
            const restored = viewFromSnapshot(snapshotText(atK)!, 'session-1', k);
            expect(restored).not.toBeNull();
            const read = memoryLog(log);
            const view = await refreshSessionView(read, 'session-1', restored!);
            // Only the events after the snapshot are read, and the view is the whole fold's, exactly.
            expect(read.given).toBe(log.length - k);
            expect(plain(view)).toStrictEqual(plain(whole));
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('is ignored when it is not a snapshot of this session at this seq in this format', async () => {
    const log = stored(
      Array.from({ length: 3 }, (_, index) => ({
        id: `00000000-0000-4000-8000-00000000000${index + 1}`,
        session_id: 'session-1',
        seq: index + 1,
        type: 'chat.message',
        actor: 'user',
        payload: { v: 1, text: `m${index}` },
        created_at: '2026-01-01T00:00:00.000Z',
      })),
    );
    const text = snapshotText(await refreshSessionView(memoryLog(log), 'session-1'))!;
    expect(viewFromSnapshot(text, 'session-1', 3)).not.toBeNull();
    expect(viewFromSnapshot(text, 'session-2', 3)).toBeNull();
    expect(viewFromSnapshot(text, 'session-1', 2)).toBeNull();
    expect(viewFromSnapshot(text.slice(0, -1), 'session-1', 3)).toBeNull();
    expect(viewFromSnapshot(text.replace('"format":1', '"format":0'), 'session-1', 3)).toBeNull();
    const parsed = JSON.parse(text);
    for (const broken of [
      { ...parsed, events: parsed.events.slice(1) },
      { ...parsed, events: [parsed.events[1], parsed.events[0], parsed.events[2]] },
      { ...parsed, state: { ...parsed.state, history: 'everything' } },
      { ...parsed, state: { ...parsed.state, readiness: null } },
      { ...parsed, state: null },
    ])
      expect(viewFromSnapshot(JSON.stringify(broken), 'session-1', 3)).toBeNull();
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.jsonValue().map((value) => JSON.stringify(value)),
        ),
        (junk) => {
          expect(viewFromSnapshot(junk, 'session-1', 3)).toBeNull();
        },
      ),
    );
  });

  it('is not written when its text is larger than the bound', async () => {
    const log = stored([
      {
        id: '00000000-0000-4000-8000-000000000001',
        session_id: 'session-1',
        seq: 1,
        type: 'chat.message',
        actor: 'user',
        payload: { v: 1, text: 'x'.repeat(1000) },
        created_at: '2026-01-01T00:00:00.000Z',
      },
    ]);
    const view = await refreshSessionView(memoryLog(log), 'session-1');
    expect(snapshotText(view, 1000)).toBeNull();
    expect(snapshotText(view, 10_000)).not.toBeNull();
  });
});

describe('the fold version', () => {
  const files = (sources: Record<string, string>) => (file: URL) => {
    const text = sources[file.pathname];
    if (text === undefined) throw new Error(`no ${file.pathname}`);
    return text;
  };
  const entry = [new URL('file:///src/domain/fold.ts')];
  const sources = {
    '/src/domain/fold.ts':
      "import { evolve } from './evolve.ts';\nimport type { State } from './state.ts';",
    '/src/domain/evolve.ts': "export { rule } from '../rules/rule.ts';\nexport const evolve = 1;",
    '/src/rules/rule.ts': 'export const rule = 1;',
  };

  it('changes with any module the fold runs, however deep, and with no other', () => {
    const version = sourceFingerprint(entry, files(sources));
    expect(sourceFingerprint(entry, files({ ...sources }))).toBe(version);
    expect(
      sourceFingerprint(
        entry,
        files({ ...sources, '/src/rules/rule.ts': 'export const rule = 2;' }),
      ),
    ).not.toBe(version);
    expect(
      sourceFingerprint(
        entry,
        files({ ...sources, '/src/domain/state.ts': 'export type State = 1;' }),
      ),
    ).toBe(version);
  });

  it("covers the process's fold: the domain's evolve, the view and its snapshot, nothing of the store", () => {
    const read: string[] = [];
    const version = sourceFingerprint(FOLD_ENTRIES, (file) => {
      read.push(file.pathname.slice(file.pathname.indexOf('/src/') + 1));
      return readFileSync(file, 'utf8');
    });
    expect(version).toBe(foldVersion());
    expect(read).toEqual(
      expect.arrayContaining([
        'src/domain/conversation/evolve.ts',
        'src/domain/conversation/upcast.ts',
        'src/agents/runtime/session-view.ts',
        'src/agents/runtime/session-view-snapshot.ts',
      ]),
    );
    expect(read.filter((path) => !/^src\/(domain|agents\/runtime)\//.test(path))).toEqual([]);
  });
});
