import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../store/index.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { createLiveTurns, type LiveTurnMessage } from './live-turns.ts';
import { shareLiveTurns } from './shared-live-turns.ts';

async function until(condition: () => boolean): Promise<void> {
  for (const end = Date.now() + 30_000; Date.now() < end; ) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the awaited condition never held');
}

describe.each(testDatabaseEngines())('live turns shared across processes on $name', (engine) => {
  let database: Database;
  beforeAll(async () => {
    database = await engine.open();
  });
  afterAll(async () => {
    await database.close();
  });

  it('gives a listener of another process every delta of a turn, once, and its partial text while it runs', async () => {
    const here = await shareLiveTurns(createLiveTurns(), database, 'process-a');
    const there = await shareLiveTurns(createLiveTurns(), database, 'process-b');
    const seenThere: LiveTurnMessage[] = [];
    const seenHere: LiveTurnMessage[] = [];
    there.subscribe('s1', (message) => seenThere.push(message));
    here.subscribe('s1', (message) => seenHere.push(message));
    const words = Array.from({ length: 30 }, (_, index) => `palavra${index} `);
    for (const word of words)
      here.publish({
        type: 'agent.delta',
        session_id: 's1',
        agent: 'criativo',
        turn_id: 't1',
        text: word,
      });
    const text = () =>
      seenThere.map((message) => (message.type === 'agent.delta' ? message.text : '')).join('');
    await until(() => text() === words.join(''));
    expect(there.partials('s1')).toEqual([
      { session_id: 's1', agent: 'criativo', turn_id: 't1', text: words.join('') },
    ]);
    expect(there.partials('other')).toEqual([]);
    here.publish({
      type: 'agent.done',
      session_id: 's1',
      agent: 'criativo',
      turn_id: 't1',
      status: 'completed',
    });
    await until(() => seenThere.some((message) => message.type === 'agent.done'));
    expect(there.partials('s1')).toEqual([]);
    // The process that streamed hears its own messages once, from itself, not again through the database.
    expect(seenHere).toHaveLength(words.length + 1);
    await Promise.all([here.close(), there.close()]);
  });
});
