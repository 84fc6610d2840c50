/**
 * A deterministic synthetic corpus for the RAG benchmark: fragments about `topics` subjects, each mixing words
 * of its subject with general words, and queries about one subject each — the structure real project text
 * has (and uniform random vectors lack), generated in milliseconds instead of embedding real documents.
 */
export function syntheticCorpus(options: {
  chunks: number;
  queries: number;
  topics?: number;
  seed?: number;
}): { chunks: string[]; queries: string[] } {
  const random = mulberry32(options.seed ?? 7);
  const topics = options.topics ?? 400;
  const general = Array.from({ length: 3000 }, (_, index) => `termo${index.toString(36)}`);
  const topicWords = Array.from({ length: topics }, (_, topic) =>
    Array.from({ length: 25 }, (_, index) => `assunto${topic.toString(36)}x${index.toString(36)}`),
  );
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const text = (topic: number, words: number, topical: number) =>
    Array.from({ length: words }, () =>
      random() < topical ? pick(topicWords[topic]!) : pick(general),
    ).join(' ');
  return {
    chunks: Array.from({ length: options.chunks }, () =>
      text(Math.floor(random() * topics), 40, 0.5),
    ),
    queries: Array.from({ length: options.queries }, () =>
      text(Math.floor(random() * topics), 8, 0.75),
    ),
  };
}

function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}
