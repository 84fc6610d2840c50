import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { embedLocally } from './hashed-ngram-embedder.ts';
import { vectorSignature } from './vector-signature.ts';

const hamming = (left: string, right: string) => {
  let bits = BigInt.asUintN(64, BigInt(left) ^ BigInt(right));
  let count = 0;
  while (bits > 0n) {
    count += Number(bits & 1n);
    bits >>= 1n;
  }
  return count;
};

describe('vectorSignature', () => {
  it('is a signed 64-bit integer, the same for the same vector', () => {
    const signature = vectorSignature(embedLocally('entrega antes das 6h'));
    expect(BigInt(signature)).toBeGreaterThanOrEqual(-(2n ** 63n));
    expect(BigInt(signature)).toBeLessThan(2n ** 63n);
    expect(vectorSignature(embedLocally('entrega antes das 6h'))).toBe(signature);
  });

  it('puts similar texts closer than unrelated ones', () => {
    const rule = vectorSignature(embedLocally('Toda entrega acontece antes das 6h da manhã'));
    const near = vectorSignature(embedLocally('a entrega acontece antes das 6h'));
    const far = vectorSignature(embedLocally('o orçamento de tokens do projeto foi excedido'));
    expect(hamming(rule, near)).toBeLessThan(hamming(rule, far));
  });

  it('is a vector and its scaled copy alike (only the direction counts; powers of two scale exactly)', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 4, maxLength: 8 }), fc.constantFrom(0.25, 0.5, 2, 4, 8), (vector, scale) => {
        expect(vectorSignature(vector.map((value) => value * scale))).toBe(vectorSignature(vector));
      }),
    );
  });
});
