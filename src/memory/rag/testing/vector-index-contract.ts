import { describe, expect, it } from 'vitest';
import { createProject, type Database } from '../../../store/index.ts';
import { embedLocally, LOCAL_EMBEDDER_NAME } from '../hashed-ngram-embedder.ts';
import type { IndexedChunk } from '../project-fragment.ts';
import type { VectorIndex } from '../vector-index.ts';

const TEXTS = [
  'A entrega acontece antes das 6h da manhã',
  'O pagamento é por assinatura mensal',
  'Sessão bloqueada: a ação de deploy foi negada',
  'O orçamento de tokens do projeto foi excedido',
  'Receita de pão de fermentação natural',
];

/** A chunk of `text`, the `index`-th source's only one, embedded with the local embedder (or named `embedder`). */
export function chunk(
  projectId: string,
  index: number,
  text: string,
  embedder = LOCAL_EMBEDDER_NAME,
): IndexedChunk {
  return {
    id: `source-${index}#0`,
    projectId,
    sourceKind: 'artifact',
    sourceId: `source-${index}`,
    sourceLabel: `artifact.business_rule #${index}`,
    chunkIndex: 0,
    text,
    embedder,
    embedding: embedLocally(text),
  };
}

/** The contract every VectorIndex method is held to: the HNSW search and the exact one answer alike. */
export function describeVectorIndexContract(
  name: string,
  setup: () => { database: Database; open: () => Promise<VectorIndex> },
): void {
  describe(`VectorIndex contract: ${name}`, () => {
    it('finds the most similar chunks of the project, best first, with cosine scores', async () => {
      const { database, open } = setup();
      const index = await open();
      const project = await createProject(database, { name: 'p' });
      await index.upsert(TEXTS.map((text, position) => chunk(project.id, position, text)));
      const hits = await index.search({
        projectId: project.id,
        embedder: LOCAL_EMBEDDER_NAME,
        vector: embedLocally('sessão bloqueada, ação negada'),
        k: 2,
      });
      expect(hits.map((hit) => hit.source_id)).toEqual(['source-2', expect.any(String)]);
      expect(hits[0]).toMatchObject({
        chunk_id: 'source-2#0',
        source_kind: 'artifact',
        source: 'artifact.business_rule #2',
        text: TEXTS[2],
      });
      expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
      const exact = embedLocally(TEXTS[2]!).reduce(
        (sum, value, position) =>
          sum + value * embedLocally('sessão bloqueada, ação negada')[position]!,
        0,
      );
      expect(hits[0]!.score).toBeCloseTo(exact, 4);
    });

    it('finds by text the chunks that share a stem with the query, across inflections and accents', async () => {
      const { database, open } = setup();
      const index = await open();
      const project = await createProject(database, { name: 'p' });
      const other = await createProject(database, { name: 'other' });
      await index.upsert([
        ...TEXTS.map((text, position) => chunk(project.id, position, text)),
        chunk(other.id, 9, TEXTS[0]!),
      ]);
      const hits = await index.searchText({
        projectId: project.id,
        embedder: LOCAL_EMBEDDER_NAME,
        text: 'entregas antes do amanhecer',
        k: 5,
      });
      expect(hits.map((hit) => hit.source_id)).toEqual(['source-0']);
      const accents = await index.searchText({
        projectId: project.id,
        embedder: LOCAL_EMBEDDER_NAME,
        text: 'orcamento excedido',
        k: 5,
      });
      expect(accents.map((hit) => hit.source_id)).toEqual(['source-3']);
      expect(
        await index.searchText({
          projectId: project.id,
          embedder: LOCAL_EMBEDDER_NAME,
          text: 'de a o',
          k: 5,
        }),
      ).toEqual([]);
    });

    it('is idempotent by chunk id and keeps projects and embedders apart', async () => {
      const { database, open } = setup();
      const index = await open();
      const mine = await createProject(database, { name: 'mine' });
      const theirs = await createProject(database, { name: 'theirs' });
      await index.upsert([
        chunk(mine.id, 0, TEXTS[0]!),
        chunk(theirs.id, 1, TEXTS[0]!),
        chunk(mine.id, 2, TEXTS[0]!, 'another-embedder'),
      ]);
      await index.upsert([chunk(mine.id, 0, TEXTS[0]!)]);
      const hits = await index.search({
        projectId: mine.id,
        embedder: LOCAL_EMBEDDER_NAME,
        vector: embedLocally(TEXTS[0]!),
        k: 10,
      });
      expect(hits.map((hit) => hit.chunk_id)).toEqual(['source-0#0']);
      expect(hits[0]!.score).toBeCloseTo(1, 4);
    });

    it('removes the chunks of a source', async () => {
      const { database, open } = setup();
      const index = await open();
      const project = await createProject(database, { name: 'p' });
      await index.upsert(TEXTS.map((text, position) => chunk(project.id, position, text)));
      await index.removeSource(project.id, 'source-2');
      const hits = await index.search({
        projectId: project.id,
        embedder: LOCAL_EMBEDDER_NAME,
        vector: embedLocally(TEXTS[2]!),
        k: 10,
      });
      expect(hits.map((hit) => hit.source_id)).not.toContain('source-2');
      expect(hits).toHaveLength(TEXTS.length - 1);
    });

    it('finds nothing in a project with no chunks', async () => {
      const { database, open } = setup();
      const project = await createProject(database, { name: 'empty' });
      expect(
        await (await open()).search({
          projectId: project.id,
          embedder: LOCAL_EMBEDDER_NAME,
          vector: embedLocally('pão'),
          k: 5,
        }),
      ).toEqual([]);
    });
  });
}
