import { chunkText } from './chunk-text.ts';
import type { Embedder } from './embedder.ts';
import type { IndexedChunk, ProjectFragment } from './project-fragment.ts';

export type ChunkingOutcome = { ok: true; chunks: IndexedChunk[] } | { ok: false; reason: string };

/**
 * Cuts fragments of one project into chunks and embeds them in one call. Chunk ids are
 * `<source id>#<chunk index>`: the same fragment always gives the same ids, so indexing it again is idempotent.
 */
export async function chunkFragments(
  embedder: Embedder,
  projectId: string,
  fragments: readonly ProjectFragment[],
): Promise<ChunkingOutcome> {
  const pieces = fragments.flatMap((fragment) =>
    chunkText(fragment.text).map((text, chunkIndex) => ({ fragment, text, chunkIndex })),
  );
  if (pieces.length === 0) return { ok: true, chunks: [] };
  const embedded = await embedder.embed(
    pieces.map((piece) => piece.text),
    { projectId },
  );
  if (!embedded.ok) return embedded;
  return {
    ok: true,
    chunks: pieces.map(({ fragment, text, chunkIndex }, index) => ({
      id: `${fragment.sourceId}#${chunkIndex}`,
      projectId: fragment.projectId,
      sourceKind: fragment.sourceKind,
      sourceId: fragment.sourceId,
      sourceLabel: fragment.sourceLabel,
      chunkIndex,
      text,
      embedder: embedder.name,
      embedding: embedded.vectors[index] ?? [],
    })),
  };
}
