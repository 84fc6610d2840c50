import type { Embedder } from './embedder.ts';

/** The local embedder's dimension: the HNSW column's (migration 0005). */
export const LOCAL_EMBEDDING_DIMENSION = 256;
export const LOCAL_EMBEDDER_NAME = `hashed-ngram-${LOCAL_EMBEDDING_DIMENSION}`;

/** Words too common to say anything about a fragment (Portuguese and English). */
const STOP_WORDS = new Set(
  'a o as os um uma de do da dos das em no na nos nas e ou que se por para com sem ao aos the an of to in on and or is are was be it this that for with as at by from'.split(
    ' ',
  ),
);

const WORD_WEIGHT = 1;
const BIGRAM_WEIGHT = 0.5;
const TRIGRAM_WEIGHT = 0.25;

/**
 * Embeds a text with no model: feature hashing (the "hashing trick") of its words, word pairs and the
 * character trigrams of each word, into `dimension` signed buckets, L2-normalised. Deterministic, offline,
 * about a microsecond per word. Trigrams let `bloqueada` meet `bloqueio`; accents and case are ignored.
 * It is lexical, not semantic: good enough to find the fragments that share a trigger's vocabulary.
 */
export function embedLocally(text: string, dimension = LOCAL_EMBEDDING_DIMENSION): number[] {
  const vector = new Array<number>(dimension).fill(0);
  const words = text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '' && !STOP_WORDS.has(word));
  const add = (feature: string, weight: number) => {
    const hash = fnv1a(feature);
    const sign = (hash & 0x80000000) === 0 ? 1 : -1;
    vector[(hash & 0x7fffffff) % dimension]! += sign * weight;
  };
  words.forEach((word, index) => {
    add(`w:${word}`, WORD_WEIGHT);
    if (index > 0) add(`b:${words[index - 1]} ${word}`, BIGRAM_WEIGHT);
    const padded = ` ${word} `;
    for (let at = 0; at + 3 <= padded.length; at += 1)
      add(`c:${padded.slice(at, at + 3)}`, TRIGRAM_WEIGHT);
  });
  const norm = Math.hypot(...vector);
  return norm === 0 ? vector : vector.map((value) => value / norm);
}

/** FNV-1a, 32 bits, over UTF-16 code units: fast, stable across platforms and versions. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The default embedder: local, offline, never fails. */
export function createLocalEmbedder(): Embedder {
  return {
    name: LOCAL_EMBEDDER_NAME,
    embed: async (texts) => ({ ok: true, vectors: texts.map((text) => embedLocally(text)) }),
  };
}
