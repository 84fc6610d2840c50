import { describe, expect, it } from 'vitest';
import { rehydrate } from '../domain/conversation/index.ts';
import { buildSessionEvents } from '../domain/conversation/test-support/build-session-events.ts';
import type { AgentCatalog } from '../agents/agent-catalog.ts';
import { respondingAgent } from './responding-agent.ts';
import { createSessionQueue } from './session-queue.ts';
import { createTurnSlots } from './turn-slots.ts';

/** A promise the test resolves by hand, so ordering is asserted without timing. */
function deferred() {
  let resolve = () => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('the session queue', () => {
  it("runs one lane's work one at a time and different lanes side by side; idle waits for work queued meanwhile", async () => {
    const queue = createSessionQueue();
    const order: string[] = [];
    const holdA = deferred();
    const a1 = queue.enqueue(
      's',
      'dev:a',
      async () => (order.push('a1 start'), await holdA.promise, order.push('a1 end')),
    );
    const a2 = queue.enqueue('s', 'dev:a', async () => order.push('a2'));
    const b1 = queue.enqueue('s', 'dev:b', async () => order.push('b1'));
    await b1;
    expect(order).toEqual(['a1 start', 'b1']);
    let idle = false;
    const waiting = queue.idle('s').then(() => (idle = true));
    queue.enqueue('s', 'dev:c', async () => order.push('c1'));
    holdA.resolve();
    await Promise.all([a1, a2, waiting]);
    expect(idle).toBe(true);
    expect(order).toEqual(['a1 start', 'b1', 'c1', 'a1 end', 'a2']);
  });
});

describe('turn slots', () => {
  it('runs at most `limit` at once and starts the rest in the order they asked', async () => {
    const slots = createTurnSlots(2);
    const started: number[] = [];
    const holds = [deferred(), deferred(), deferred(), deferred()];
    const runs = holds.map((hold, index) =>
      slots.run(async () => (started.push(index), await hold.promise)),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(slots.usage()).toEqual({ running: 2, waiting: 2 });
    holds[1]!.resolve();
    await runs[1];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    holds[0]!.resolve();
    holds[2]!.resolve();
    holds[3]!.resolve();
    await Promise.all(runs);
    expect(started).toEqual([0, 1, 2, 3]);
    expect(slots.usage()).toEqual({ running: 0, waiting: 0 });
  });

  it('refuses a bound that is not a whole number of at least 1', () => {
    expect(() => createTurnSlots(0)).toThrow('limit must be a whole number ≥ 1, got 0');
  });
});

describe('the current addressee', () => {
  const catalog: AgentCatalog = { get: () => null, isConversational: () => true };
  const state = (...specs: Parameters<typeof buildSessionEvents>[1]) =>
    rehydrate(buildSessionEvents('s', specs));
  const activated = (agent: string) => ({
    type: 'agent.activated',
    payload: { v: 1, agent, handoff_id: agent === 'criativo' ? null : `h-${agent}` },
  });
  const message = (to?: string) => ({
    type: 'chat.message',
    actor: 'user',
    payload: to === undefined ? { v: 1, text: 'x' } : { v: 1, text: 'x', to },
  });

  it('is the agent last written to, unless an agent was activated after that message; else the last activated', () => {
    expect(respondingAgent(state(), catalog)).toBeNull();
    expect(respondingAgent(state(activated('criativo'), activated('po')), catalog)).toBe('po');
    expect(
      respondingAgent(state(activated('criativo'), activated('po'), message('criativo')), catalog),
    ).toBe('criativo');
    expect(
      respondingAgent(state(activated('criativo'), message('criativo'), activated('po')), catalog),
    ).toBe('po');
    // Messages from before lanes name nobody: the last activated answers, as it did.
    expect(respondingAgent(state(activated('criativo'), activated('po'), message()), catalog)).toBe(
      'po',
    );
  });
});
