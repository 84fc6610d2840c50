import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GREETING_LANGUAGES, greetingLanguage } from './greetings.ts';

describe('the greeting language from Accept-Language', () => {
  it.each([
    [undefined, 'en'],
    ['', 'en'],
    ['pt-BR', 'pt'],
    ['PT', 'pt'],
    ['pt-BR,pt;q=0.9,en;q=0.8', 'pt'],
    ['en-US,en;q=0.9,pt;q=0.8', 'en'],
    ['de-DE, fr;q=0.9, pt;q=0.5, en;q=0.4', 'pt'],
    ['en;q=0.2, pt;q=0.7', 'pt'],
    ['pt;q=0, en;q=0.1', 'en'],
    ['de, fr', 'en'],
    ['*', 'en'],
  ] as const)('%s → %s', (header, expected) => {
    expect(greetingLanguage(header)).toBe(expected);
  });

  it('is always a supported language, whatever the header, and never throws', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (header) => {
        expect(GREETING_LANGUAGES).toContain(greetingLanguage(header));
      }),
    );
  });

  it('takes the supported language with the highest q, whatever else comes first', () => {
    const other = fc.constantFrom('de', 'fr', 'es-ES', 'ja', 'zh-CN');
    const q = fc.integer({ min: 2, max: 999 });
    fc.assert(
      fc.property(
        fc.array(other, { maxLength: 4 }),
        fc.constantFrom(...GREETING_LANGUAGES),
        q,
        (others, wanted, weight) => {
          const loser = wanted === 'en' ? 'pt' : 'en';
          const header = [
            ...others,
            `${loser};q=${Math.floor(weight / 2) / 1000}`,
            `${wanted}-XX;q=${weight / 1000}`,
          ].join(', ');
          expect(greetingLanguage(header)).toBe(wanted);
        },
      ),
    );
  });
});
