import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EVENT_TYPES, SESSION_EVENTS } from '../conversation/index.ts';
import { LINE_EVENTS } from '../line/index.ts';
import { MEMORY_EVENTS } from '../memory/index.ts';
import { MEMORY_EVENT_TYPES } from '../memory/memory-event-types.ts';
import { defineEvent } from './define-event.ts';

const noteTaken = defineEvent('note.taken', z.object({ v: z.literal(1), text: z.string().min(1) }));

describe('defineEvent', () => {
  it('creates the event with its wire name and reads back only its own, parsed payloads', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (actor, text) => {
        const event = noteTaken.create(actor, { v: 1, text });
        expect(event).toEqual({ type: 'note.taken', actor, payload: { v: 1, text } });
        expect(noteTaken.is(event)).toBe(true);
        expect(noteTaken.read(event)).toEqual({ v: 1, text });
        expect(noteTaken.read({ ...event, type: 'note.lost' })).toBeNull();
        expect(noteTaken.read({ ...event, payload: { v: 2, text } })).toBeNull();
      }),
    );
  });

  it('types the payload by its schema', () => {
    // @ts-expect-error — `text` is required by the schema
    noteTaken.create('user', { v: 1 });
    // @ts-expect-error — the version is the literal 1
    noteTaken.create('user', { v: 2, text: 'x' });
    expect(noteTaken.type).toBe('note.taken');
  });
});

describe('the event maps', () => {
  const definitions = [
    ...Object.values(SESSION_EVENTS),
    ...Object.values(MEMORY_EVENTS),
    ...Object.values(LINE_EVENTS),
  ];

  it('define every named conversation and memory event, each wire name once', () => {
    const types = definitions.map((definition) => definition.type);
    expect(new Set(types).size).toBe(types.length);
    for (const type of [...Object.values(EVENT_TYPES), ...Object.values(MEMORY_EVENT_TYPES)])
      expect(types).toContain(type);
  });

  it('write payloads their own schema reads back (chat.message, turn.failed, module.merge_failed)', () => {
    const written = [
      SESSION_EVENTS.chatMessage.create('user', { v: 1, text: 'olá', to: 'criativo' }),
      SESSION_EVENTS.turnFailed.create('system', {
        v: 1,
        turn_id: 't1',
        agent: 'po',
        reason: 'provider_error',
        message: 'the provider answered 500',
      }),
      LINE_EVENTS.moduleMergeFailed.create('system', {
        v: 1,
        module: 'board',
        kind: 'conflict',
        paths: ['src/a.ts'],
      }),
    ];
    for (const event of written) {
      const definition = definitions.find((each) => each.type === event.type)!;
      expect(definition.read(event)).toEqual(event.payload);
    }
  });
});
