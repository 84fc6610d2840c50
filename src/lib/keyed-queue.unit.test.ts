import { describe, expect, it } from 'vitest';
import { createKeyedQueue } from './keyed-queue.ts';

/** A promise the test resolves by hand, so ordering is asserted without timing. */
function deferred() {
  let resolve = () => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** Resolves once every promise callback already due has run (a macrotask comes after them all). */
const everyCallbackRun = () => new Promise<void>((done) => setImmediate(done));

describe('the keyed queue', () => {
  it("runs one key's work one at a time in queue order and other keys' work side by side", async () => {
    const queue = createKeyedQueue();
    const order: string[] = [];
    const holdA = deferred();
    const a1 = queue.run('a', async () => {
      order.push('a1 start');
      await holdA.promise;
      order.push('a1 end');
      return 'a1';
    });
    const a2 = queue.run('a', async () => (order.push('a2'), 'a2'));
    await queue.run('b', async () => order.push('b1'));
    expect(order).toEqual(['a1 start', 'b1']);
    holdA.resolve();
    expect(await Promise.all([a1, a2])).toEqual(['a1', 'a2']);
    expect(order).toEqual(['a1 start', 'b1', 'a1 end', 'a2']);
  });

  it('rejects only the work that failed: the next work of its key still runs', async () => {
    const queue = createKeyedQueue();
    const failed = queue.run('a', async () => {
      throw new Error('boom');
    });
    const next = queue.run('a', async () => 'ran');
    await expect(failed).rejects.toThrow('boom');
    expect(await next).toBe('ran');
  });

  it('idle waits for the matching keys only, including work queued under them while waiting', async () => {
    const queue = createKeyedQueue();
    const order: string[] = [];
    const holdA = deferred();
    const holdB = deferred();
    const holdOther = deferred();
    void queue.run('s1/a', async () => (await holdA.promise, order.push('s1/a')));
    const other = queue.run('s2/a', async () => (await holdOther.promise, order.push('s2/a')));
    const idle = queue.idle((key) => key.startsWith('s1/')).then(() => order.push('s1 idle'));
    void queue.run('s1/b', async () => (await holdB.promise, order.push('s1/b')));
    holdA.resolve();
    await everyCallbackRun();
    expect(order).toEqual(['s1/a']);
    holdB.resolve();
    await idle;
    expect(order).toEqual(['s1/a', 's1/b', 's1 idle']);
    const all = queue.idle().then(() => order.push('all idle'));
    holdOther.resolve();
    await Promise.all([other, all]);
    expect(order.slice(3)).toEqual(['s2/a', 'all idle']);
  });

  it("keeps a key's order when its earlier work ends while later work still waits", async () => {
    const queue = createKeyedQueue();
    const order: string[] = [];
    const hold1 = deferred();
    const hold2 = deferred();
    void queue.run('a', async () => (await hold1.promise, order.push('a1')));
    void queue.run('a', async () => (await hold2.promise, order.push('a2')));
    hold1.resolve();
    await everyCallbackRun();
    const a3 = queue.run('a', async () => order.push('a3'));
    await everyCallbackRun();
    expect(order).toEqual(['a1']);
    hold2.resolve();
    await a3;
    expect(order).toEqual(['a1', 'a2', 'a3']);
  });

  it('is idle at once when nothing is queued, and after work has finished', async () => {
    const queue = createKeyedQueue();
    await queue.idle();
    await queue.run('a', async () => undefined);
    let idle = false;
    await queue.idle().then(() => (idle = true));
    expect(idle).toBe(true);
  });
});
