import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSessionEvents } from '../conversation/test-support/build-session-events.ts';
import { composeTriageWindow, renderRecentWindow, type TriageFragment } from './triage-window.ts';

const events = buildSessionEvents('session-1', [
  { type: 'chat.message', actor: 'user', payload: { v: 1, text: 'first' } },
  {
    type: 'agent.response',
    actor: 'criativo',
    payload: { v: 1, agent: 'criativo', text: 'second' },
  },
  { type: 'chat.message', actor: 'user', payload: { v: 1, text: 'a long third message' } },
]);
const fragment = (source: string, score: number, text = `text of ${source}`): TriageFragment => ({
  source,
  text,
  score,
});

describe('composeTriageWindow', () => {
  it('without fragments or degradation is the window without RAG, byte for byte', () => {
    const limits = { recentEvents: events, maxPromptEvents: 2, maxPayloadChars: 20 };
    const window = composeTriageWindow({ ...limits, ragFragments: [], degraded: false });
    expect(window.text).toBe(
      [
        '## eventos recentes',
        '#2 2026-01-01T00:00:02.000Z agent.response (criativo): {"v":1,"agent":"cria [… truncado …]',
        '#3 2026-01-01T00:00:03.000Z chat.message (user): {"v":1,"text":"a lon [… truncado …]',
      ].join('\n'),
    );
    expect(window).toEqual(renderRecentWindow(limits));
  });

  it('gives fragments slots taken from the oldest recent events, best score first', () => {
    const window = composeTriageWindow({
      recentEvents: events,
      ragFragments: [fragment('doc:a', 0.2), fragment('rule:b', 0.9), fragment('doc:c', 0.5)],
      maxPromptEvents: 4,
      maxPayloadChars: 200,
      degraded: false,
    });
    expect(window.events.map((event) => event.seq)).toEqual([2, 3]);
    expect(window.fragments.map((shown) => shown.source)).toEqual(['rule:b', 'doc:c']);
    expect(window.text.split('\n').slice(-3)).toEqual([
      '## fragmentos relevantes (rag_search)',
      '- [0.90] rule:b: text of rule:b',
      '- [0.50] doc:c: text of doc:c',
    ]);
  });

  it('shows degradation with its reason and leaves the events as they were', () => {
    const limits = { recentEvents: events, maxPromptEvents: 3, maxPayloadChars: 200 };
    const window = composeTriageWindow({
      ...limits,
      ragFragments: [],
      degraded: { reason: 'vector index\nunavailable' },
    });
    expect(window.text).toBe(
      `${renderRecentWindow(limits).text}\n\n## fragmentos relevantes (rag_search)\ndegraded: true (reason: vector index unavailable)`,
    );
  });

  it('cuts fragment text at maxPayloadChars and keeps it on one line', () => {
    const window = composeTriageWindow({
      recentEvents: [],
      ragFragments: [fragment('doc:a', 1, 'line one\nline two')],
      maxPromptEvents: 2,
      maxPayloadChars: 8,
      degraded: false,
    });
    expect(window.text).toBe(
      '## eventos recentes\n\n## fragmentos relevantes (rag_search)\n- [1.00] doc:a: line one [… truncado …]',
    );
  });

  it('throws on a negative or fractional limit: that is a configuration bug', () => {
    expect(() =>
      renderRecentWindow({ recentEvents: events, maxPromptEvents: -1, maxPayloadChars: 10 }),
    ).toThrow('maxPromptEvents');
    expect(() =>
      composeTriageWindow({
        recentEvents: events,
        ragFragments: [],
        maxPromptEvents: 2,
        maxPayloadChars: 1.5,
        degraded: false,
      }),
    ).toThrow('maxPayloadChars');
  });
});

describe('composeTriageWindow properties', () => {
  const payloadText = fc.string({ unit: 'grapheme', maxLength: 60 });
  const eventsArbitrary = fc.array(payloadText, { maxLength: 15 }).map((texts) =>
    buildSessionEvents(
      'session-1',
      texts.map((text) => ({ type: 'chat.message', actor: 'user', payload: { v: 1, text } })),
    ),
  );
  const fragmentsArbitrary = fc.array(
    fc.record({
      source: fc.string({ minLength: 1, maxLength: 10 }),
      text: payloadText,
      score: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
    { maxLength: 10 },
  );
  const limit = fc.integer({ min: 0, max: 12 });
  const degradedArbitrary = fc.oneof(
    fc.constant(false as const),
    fc.record({ reason: fc.string() }),
  );

  it('never adds on top: events + fragments fit in maxPromptEvents, and the newest events stay', () => {
    fc.assert(
      fc.property(
        eventsArbitrary,
        fragmentsArbitrary,
        limit,
        degradedArbitrary,
        (recentEvents, ragFragments, maxPromptEvents, degraded) => {
          const window = composeTriageWindow({
            recentEvents,
            ragFragments,
            maxPromptEvents,
            maxPayloadChars: 30,
            degraded,
          });
          expect(window.events.length + window.fragments.length).toBeLessThanOrEqual(
            maxPromptEvents,
          );
          expect(window.fragments.length).toBe(
            Math.min(ragFragments.length, Math.floor(maxPromptEvents / 2)),
          );
          expect(window.events.length).toBe(
            Math.min(recentEvents.length, maxPromptEvents - window.fragments.length),
          );
          expect(window.events).toEqual(
            recentEvents.slice(recentEvents.length - window.events.length),
          );
        },
      ),
    );
  });

  it('with no fragments and no degradation, is byte-identical to the window without RAG', () => {
    fc.assert(
      fc.property(
        eventsArbitrary,
        limit,
        limit,
        (recentEvents, maxPromptEvents, maxPayloadChars) => {
          const limits = { recentEvents, maxPromptEvents, maxPayloadChars };
          expect(composeTriageWindow({ ...limits, ragFragments: [], degraded: false }).text).toBe(
            renderRecentWindow(limits).text,
          );
        },
      ),
    );
  });

  it('when degraded, says so with the reason, after the events of the window without RAG', () => {
    fc.assert(
      fc.property(
        eventsArbitrary,
        limit,
        fc.string({ maxLength: 30 }),
        (recentEvents, maxPromptEvents, reason) => {
          const limits = { recentEvents, maxPromptEvents, maxPayloadChars: 30 };
          const text = composeTriageWindow({
            ...limits,
            ragFragments: [],
            degraded: { reason },
          }).text;
          expect(text.startsWith(`${renderRecentWindow(limits).text}\n\n`)).toBe(true);
          expect(text.split('\n')).toContainEqual(
            expect.stringMatching(/^degraded: true \(reason: .*\)$/),
          );
        },
      ),
    );
  });

  it('cuts every payload at maxPayloadChars characters without breaking a character in two', () => {
    fc.assert(
      fc.property(
        eventsArbitrary,
        fragmentsArbitrary,
        limit,
        (recentEvents, ragFragments, maxPayloadChars) => {
          const window = composeTriageWindow({
            recentEvents,
            ragFragments,
            maxPromptEvents: 12,
            maxPayloadChars,
            degraded: false,
          });
          expect(window.text.isWellFormed()).toBe(true);
          for (const line of window.text
            .split('\n')
            .filter((candidate) => candidate.startsWith('#') && !candidate.startsWith('##'))) {
            const payload = line.slice(line.indexOf('): ') + 3).replace(/ \[… truncado …\]$/, '');
            expect(Array.from(payload).length).toBeLessThanOrEqual(maxPayloadChars);
          }
        },
      ),
    );
  });
});
