import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  hasUnstorableText,
  MAX_STORABLE_DEPTH,
  REPLACEMENT_CHARACTER,
  storableText,
  storableValue,
  UnstorableValueError,
} from './storable-text.ts';

/** Strings of any UTF-16 code units: NULs, lone surrogates, pairs, everything. */
const anyText = fc.string({
  unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
});

/** What PostgreSQL stores: no NUL, no lone surrogate, so it is well-formed UTF-16 and encodes as UTF-8. */
const storable = (text: string) => !text.includes('\u0000') && text.isWellFormed();

describe('storable text', () => {
  it('leaves no NUL and no lone surrogate, keeps the length, and changes nothing else', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const made = storableText(text);
        expect(storable(made)).toBe(true);
        expect(made).toHaveLength(text.length);
        for (let index = 0; index < text.length; index += 1)
          if (made[index] !== text[index]) expect(made[index]).toBe(REPLACEMENT_CHARACTER);
        expect(hasUnstorableText(text)).toBe(made !== text);
      }),
    );
  });

  it('is the identity on storable text and idempotent', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        expect(storableText(text)).toBe(text);
      }),
    );
    fc.assert(
      fc.property(anyText, (text) => {
        expect(storableText(storableText(text))).toBe(storableText(text));
      }),
    );
  });

  it('round-trips through JSON as the same storable text', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const made = storableText(text);
        expect(JSON.parse(JSON.stringify(made))).toBe(made);
        expect(Buffer.from(made, 'utf8').toString('utf8')).toBe(made);
      }),
    );
  });

  it('replaces what a binary output and a hostile model send', () => {
    expect(storableText('a\u0000b')).toBe('a\uFFFDb');
    expect(storableText('\uD83D')).toBe('\uFFFD');
    expect(storableText('\uDE00x')).toBe('\uFFFDx');
    expect(storableText('ok \uD83D\uDE00')).toBe('ok \uD83D\uDE00');
  });
});

describe('storable values', () => {
  const anyJson = fc.jsonValue().chain((value) => fc.constant(value));
  const hostileJson = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      anyText,
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value')),
      fc.dictionary(anyText, tie('value')),
    ),
  })).value;

  it('makes every string and key of a value storable, and JSON of it keeps no NUL or lone surrogate', () => {
    fc.assert(
      fc.property(hostileJson, (value) => {
        const json = JSON.stringify(storableValue(value));
        expect(/\\u0000|\\ud[89a-f][0-9a-f]{2}/i.test(json)).toBe(false);
        expect(storable(json)).toBe(true);
      }),
    );
  });

  it('returns the very value when it is storable already', () => {
    fc.assert(
      fc.property(anyJson, (value) => {
        const storableOnly = JSON.parse(
          JSON.stringify(value, (_key, item) =>
            typeof item === 'string' ? storableText(item) : item,
          ),
        );
        expect(storableValue(storableOnly)).toBe(storableOnly);
      }),
    );
  });

  it('refuses a value nested too deep, naming the limit', () => {
    let deep: unknown = 'end';
    for (let level = 0; level <= MAX_STORABLE_DEPTH; level += 1) deep = [deep];
    expect(() => storableValue(deep)).toThrow(UnstorableValueError);
    expect(() => storableValue(deep)).toThrow(`deeper than ${MAX_STORABLE_DEPTH} levels`);
  });
});
