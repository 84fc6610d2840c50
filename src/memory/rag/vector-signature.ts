/**
 * Bits of a vector's signature, one random hyperplane each. 256 bits find 96–98 % of the exact top 10 among
 * 1,000–1,500 candidates of 100,000 synthetic chunks (64 bits: 67 %; 128 bits: 92 %), simulated before the choice.
 */
export const SIGNATURE_BITS = 256;

const hyperplanesByDimension = new Map<number, Float64Array[]>();

/**
 * A vector's 256-bit random-hyperplane signature (Charikar's SimHash), as a bit-string literal for a
 * PostgreSQL `bit(256)`: bit i says on which side of hyperplane i the vector lies. The Hamming distance of two
 * signatures estimates the angle between the vectors, so a scan of signatures (bit-string XOR and popcount, no
 * extension) picks candidates that an exact dot product then ranks. The hyperplanes are fixed per dimension
 * (a seeded generator), so a signature never changes between processes or rebuilds.
 */
export function vectorSignature(vector: readonly number[]): string {
  const planes = hyperplanes(vector.length);
  let signature = '';
  for (let bit = 0; bit < SIGNATURE_BITS; bit += 1) {
    const plane = planes[bit]!;
    let dot = 0;
    for (let index = 0; index < vector.length; index += 1) dot += plane[index]! * vector[index]!;
    signature += dot >= 0 ? '1' : '0';
  }
  return signature;
}

function hyperplanes(dimension: number): Float64Array[] {
  let planes = hyperplanesByDimension.get(dimension);
  if (planes) return planes;
  const random = mulberry32(0x5eed ^ dimension);
  planes = Array.from({ length: SIGNATURE_BITS }, () => {
    const plane = new Float64Array(dimension);
    // Gaussian components (Box–Muller) make the hyperplanes' normals uniform on the sphere.
    for (let index = 0; index < dimension; index += 1)
      plane[index] = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    return plane;
  });
  hyperplanesByDimension.set(dimension, planes);
  return planes;
}

/** A small seeded PRNG: the same sequence on every machine. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}
