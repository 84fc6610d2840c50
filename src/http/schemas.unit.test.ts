import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalText, MAX_SEQ, seqText, text } from './schemas.ts';

describe('text()', () => {
  it('accepts any well-formed text without a NUL, and refuses a NUL or a lone surrogate anywhere in it', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        const storable = !value.includes('\u0000') && value.isWellFormed();
        expect(text().safeParse(value).success).toBe(storable);
      }),
    );
    fc.assert(
      fc.property(
        fc.string(),
        fc.string(),
        fc.constantFrom('\u0000', '\ud800', '\udfff', '\ud83d'),
        (before, after, bad) => {
          const result = text().safeParse(`${before}${bad}${after}`);
          expect(result.success).toBe(false);
          expect(result.error!.issues[0]!.message).toMatch(/NUL|surrogate/);
        },
      ),
    );
  });

  it('keeps a surrogate pair (an emoji) and says which rule a refusal broke', () => {
    expect(text().safeParse('pão 🙂').success).toBe(true);
    expect(text().safeParse('a\u0000').error!.issues[0]!.message).toContain('NUL');
    expect(text().safeParse('a\ud800').error!.issues[0]!.message).toContain(
      'lone UTF-16 surrogate',
    );
  });
});

describe('decimalText()', () => {
  it('reads only decimal digits, within its bounds', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom('0', '1', '9', 'x', 'e', '-', '+', '.', ' ', 'a', '０'),
        }),
        (value) => {
          const parsed = decimalText(1, 1000).safeParse(value);
          const expected = /^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= 1000;
          expect(parsed.success, value).toBe(expected);
          if (parsed.success) expect(parsed.data).toBe(Number(value));
        },
      ),
    );
  });

  it('bounds a seq by the integer column', () => {
    expect(seqText().safeParse(String(MAX_SEQ))).toMatchObject({
      success: true,
      data: 2_147_483_647,
    });
    for (const value of ['2147483648', '0x10', '1e3', '', ' 1', '99999999999999999999'])
      expect(seqText().safeParse(value).success, value).toBe(false);
  });
});
