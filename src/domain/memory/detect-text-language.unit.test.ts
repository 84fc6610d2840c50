import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectTextLanguage } from './detect-text-language.ts';

describe('detectTextLanguage', () => {
  it('reads Portuguese and English from their function words, accents folded', () => {
    expect(detectTextLanguage('Entrega antes das 6h para os assinantes')).toBe('portuguese');
    expect(detectTextLanguage('Não há entrega aos domingos')).toBe('portuguese');
    expect(detectTextLanguage('Deliveries arrive before dawn for every subscriber')).toBe(
      'english',
    );
    expect(detectTextLanguage('The order is paid at checkout')).toBe('english');
  });

  it('falls back to simple for code, names and text it cannot tell', () => {
    expect(detectTextLanguage('createOrder(customerId: string): Order')).toBe('simple');
    expect(detectTextLanguage('')).toBe('simple');
    expect(detectTextLanguage('pedido de entrega, the order')).toBe('simple');
  });

  it('always answers one of the three configurations, the same for the same text', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const language = detectTextLanguage(text);
        expect(['portuguese', 'english', 'simple']).toContain(language);
        expect(detectTextLanguage(text)).toBe(language);
      }),
    );
  });
});
