import { describe, expect, it } from 'vitest';
import type { ChatItem } from '../../web/src/session/fold/session-view.ts';
import { announcement, lastAnswerOf, type Watched } from '../../web/src/session/announce.ts';

const quiet: Watched = {
  needsYou: 0,
  stage: 'idea',
  merged: false,
  lastAnswer: null,
  streaming: [],
};

describe("the session's live region", () => {
  it('says nothing when nothing it watches changed', () => {
    expect(announcement(quiet, { ...quiet })).toBeNull();
    expect(announcement({ ...quiet, needsYou: 2 }, { ...quiet, needsYou: 2 })).toBeNull();
  });

  it('says when more things need the person, never when they get fewer', () => {
    expect(announcement(quiet, { ...quiet, needsYou: 1 })).toBe('1 thing needs you.');
    expect(announcement({ ...quiet, needsYou: 1 }, { ...quiet, needsYou: 3 })).toBe(
      '3 things need you.',
    );
    expect(announcement({ ...quiet, needsYou: 3 }, { ...quiet, needsYou: 2 })).toBeNull();
  });

  it('says an agent starts answering and has answered, once each, never the streamed text', () => {
    const answering = { ...quiet, streaming: ['criativo'] };
    expect(announcement(quiet, answering)).toBe('Criativo is answering.');
    // Tokens keep arriving: the watched values do not change, so nothing more is said.
    expect(announcement(answering, { ...answering })).toBeNull();
    const answered = { ...quiet, lastAnswer: { seq: 9, agent: 'criativo' } };
    expect(announcement(answering, answered)).toBe('Criativo answered.');
    expect(announcement(answered, { ...answered })).toBeNull();
  });

  it('says the stage the line reached, and the merge', () => {
    expect(announcement(quiet, { ...quiet, stage: 'brief' })).toBe('The line reached: Brief.');
    expect(
      announcement({ ...quiet, stage: 'merged' }, { ...quiet, stage: 'merged', merged: true }),
    ).toBe('The line is merged into main.');
  });

  it('finds the newest agent answer of a chat', () => {
    const chat: ChatItem[] = [
      { kind: 'user', seq: 1, text: 'hi', to: null },
      {
        kind: 'agent',
        seq: 2,
        agent: 'criativo',
        text: 'hello',
        tools: [],
        turnId: 't1',
        eventId: 'e2',
      },
      { kind: 'user', seq: 3, text: 'more', to: null },
    ];
    expect(lastAnswerOf(chat)).toEqual({ seq: 2, agent: 'criativo' });
    expect(lastAnswerOf(chat.slice(0, 1))).toBeNull();
  });
});
