import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { connectionQueue } from './connection-queue.ts';
import { BACKGROUND_MAX_WAIT_MS } from './foreground-statements.ts';

/** A holder that records when it got the connection and keeps it until `release` is called. */
function holders() {
  const order: string[] = [];
  const releases = new Map<string, () => void>();
  const hold = (name: string) => () => {
    order.push(name);
    return new Promise<void>((resolve) => releases.set(name, resolve));
  };
  const release = async (name: string) => {
    releases.get(name)?.();
    // The queue hands the connection on a microtask after the holder lets go.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { order, hold, release };
}

describe('connectionQueue', () => {
  it('hands the connection to every foreground holder queued meanwhile before any background one, each kind in its order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { maxLength: 12 }), async (kinds) => {
        const queue = connectionQueue(() => 0);
        const { order, hold, release } = holders();
        queue.submit(false, hold('holding'));
        const names = kinds.map((background, index) => `${background ? 'bg' : 'fg'}${index}`);
        for (const [index, name] of names.entries()) queue.submit(kinds[index]!, hold(name));
        expect(order).toEqual(['holding']);
        await release('holding');
        for (let index = 0; index < names.length; index += 1) await release(order.at(-1)!);
        expect(order.slice(1)).toEqual([
          ...names.filter((name) => name.startsWith('fg')),
          ...names.filter((name) => name.startsWith('bg')),
        ]);
      }),
    );
  });

  it('lets a background holder that waited the longest wait go before the foreground, so a busy database still drains', async () => {
    let now = 0;
    const queue = connectionQueue(() => now);
    const { order, hold, release } = holders();
    queue.submit(false, hold('holding'));
    queue.submit(true, hold('drain'));
    now += BACKGROUND_MAX_WAIT_MS - 1;
    queue.submit(false, hold('message 1'));
    await release('holding');
    expect(order).toEqual(['holding', 'message 1']);
    now += 1;
    queue.submit(false, hold('message 2'));
    await release('message 1');
    expect(order).toEqual(['holding', 'message 1', 'drain']);
    await release('drain');
    expect(order).toEqual(['holding', 'message 1', 'drain', 'message 2']);
  });

  it('frees the connection when a holder fails, at once or later', async () => {
    const queue = connectionQueue(() => 0);
    const ran: string[] = [];
    queue.submit(false, () => {
      throw new Error('could not start');
    });
    queue.submit(false, async () => {
      ran.push('second');
      throw new Error('failed');
    });
    queue.submit(true, async () => void ran.push('third'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toEqual(['second', 'third']);
    expect(queue.waiting()).toEqual({ foreground: 0, background: 0 });
  });
});
