import { describe, expect, it } from 'vitest';
import type { LiveTurnMessage } from './live-turns.ts';
import fc from 'fast-check';
import {
  coalesceLiveMessages,
  followRemoteDelta,
  livePayloads,
  watchPayloads,
  type SharedLiveMessage,
} from './shared-live-turns.ts';

const delta = (turn: string, text: string): LiveTurnMessage => ({
  type: 'agent.delta',
  session_id: 's',
  agent: 'criativo',
  turn_id: turn,
  text,
});

describe('live turn messages across processes', () => {
  it('joins a burst of deltas of one turn into one, keeping turns apart and the end in its place', () => {
    const burst = Array.from({ length: 40 }, (_, index) => delta('t1', `w${index} `));
    const done: LiveTurnMessage = {
      type: 'agent.done',
      session_id: 's',
      agent: 'criativo',
      turn_id: 't1',
      status: 'completed',
    };
    expect(coalesceLiveMessages(burst)).toEqual([
      delta('t1', burst.map((m) => (m as { text: string }).text).join('')),
    ]);
    expect(
      coalesceLiveMessages([delta('t1', 'a'), delta('t2', 'b'), delta('t1', 'c')]),
    ).toHaveLength(3);
    expect(
      coalesceLiveMessages([delta('t1', 'a'), delta('t1', 'b'), done, delta('t1', 'c')]),
    ).toEqual([delta('t1', 'ab'), done, delta('t1', 'c')]);
  });

  it('cuts a long text into payloads NOTIFY accepts (under 8000 bytes), losing nothing', () => {
    const text = 'pão de madrugada 🍞 '.repeat(2_000);
    const payloads = livePayloads('origin', [delta('t1', text), delta('t2', 'fim')]);
    expect(payloads.length).toBeGreaterThan(1);
    for (const payload of payloads) expect(Buffer.byteLength(payload)).toBeLessThan(8_000);
    const messages = payloads.flatMap(
      (payload) =>
        (JSON.parse(payload) as { messages: Array<{ turn_id: string; text: string }> }).messages,
    );
    expect(
      messages
        .filter((m) => m.turn_id === 't1')
        .map((m) => m.text)
        .join(''),
    ).toBe(text);
    expect(messages.at(-1)).toMatchObject({ turn_id: 't2', text: 'fim' });
  });

  it("a catch-up starts a turn's text again: later deltas join it, it never joins an earlier one", () => {
    const catchUp: SharedLiveMessage = {
      ...delta('t1', 'abc'),
      from_start: true,
    } as SharedLiveMessage;
    expect(coalesceLiveMessages([delta('t1', 'a'), catchUp, delta('t1', 'd')])).toEqual([
      delta('t1', 'a'),
      { ...delta('t1', 'abcd'), from_start: true },
    ]);
  });

  it('cuts a long catch-up so that only its first piece starts the text again', () => {
    const text = 'x'.repeat(9_000);
    const payloads = livePayloads('origin', [
      { ...delta('t1', text), from_start: true } as SharedLiveMessage,
    ]);
    const messages = payloads.flatMap(
      (payload) =>
        (JSON.parse(payload) as { messages: Array<{ text: string; from_start?: true }> }).messages,
    );
    expect(messages.map((message) => message.from_start === true)).toEqual([
      true,
      ...Array(messages.length - 1).fill(false),
    ]);
    expect(messages.map((message) => message.text).join('')).toBe(text);
  });

  it('announces any number of watched sessions in payloads NOTIFY accepts, each session once', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.uuid(), { maxLength: 600 }), fc.boolean(), (ids, catchUp) => {
        const payloads = watchPayloads('origin', ids, catchUp);
        const parsed = payloads.map(
          (payload) => JSON.parse(payload) as { watch: string[]; catch_up: boolean },
        );
        for (const payload of payloads) expect(Buffer.byteLength(payload)).toBeLessThan(8_000);
        expect(parsed.flatMap((payload) => payload.watch)).toEqual(ids);
        expect(
          parsed.every((payload) => payload.catch_up === catchUp && payload.watch.length > 0),
        ).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('a process that begins to watch mid-turn ends with the whole text, given to its streams once, whatever it missed', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 20 }),
        fc.nat(),
        fc.nat(),
        (pieces, joinSeed, catchUpSeed) => {
          // It hears nothing before `joined`; pieces sent before its catch-up arrives reach it first, plain.
          const joined = joinSeed % pieces.length;
          const caughtUp = joined + (catchUpSeed % (pieces.length - joined + 1));
          let kept: { origin: string; text: string } | undefined;
          let shown = '';
          const receive = (delta: { text: string; from_start?: true }) => {
            const followed = followRemoteDelta(kept, 'a', delta);
            if (followed === null) return;
            kept = { origin: 'a', text: followed.keep };
            shown += followed.deliver;
          };
          for (const piece of pieces.slice(joined, caughtUp)) receive({ text: piece });
          receive({ text: pieces.slice(0, caughtUp).join(''), from_start: true });
          for (const piece of pieces.slice(caughtUp)) receive({ text: piece });
          expect(kept?.text).toBe(pieces.join(''));
          expect(shown).toBe(pieces.join(''));
          // Asked again (its connection came back, nothing lost): its streams get nothing twice.
          receive({ text: pieces.join(''), from_start: true });
          expect(shown).toBe(pieces.join(''));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a catch-up from another process starts the turn again (a takeover); a plain piece from it is dropped', () => {
    const kept = { origin: 'a', text: 'old text' };
    expect(followRemoteDelta(kept, 'b', { text: 'new' })).toBeNull();
    expect(followRemoteDelta(kept, 'b', { text: 'new', from_start: true })).toEqual({
      keep: 'new',
      deliver: 'new',
    });
  });
});
