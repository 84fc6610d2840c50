import type { Migration } from './migration.ts';

/**
 * The signatures of the search without pgvector move to a narrow table of their own (ADR 0260).
 * `rag.chunks` rows carry the text, the embedding and the `tsvector` (≈1.5 kB each, 156 MB at 100,000 chunks):
 * the signature scan read all of it on every search, more than the server's shared buffers, and pushed the
 * full-text search's pages out. `rag.chunk_signatures` holds only the key, the embedder and the 256 bits
 * (≈110 bytes a row, 11 MB at 100,000 chunks), so the scan reads a tenth of the bytes; the exact rerank then
 * reads only its candidates' rows in `rag.chunks`. A chunk's signature is written with it (one statement) and
 * deleted with it (`on delete cascade`). The column in `rag.chunks` is dropped: one place holds a signature.
 */
export const ragChunkSignatures: Migration = {
  version: 14,
  name: 'rag-chunk-signatures',
  sql: `
    create table rag.chunk_signatures (
      project_id uuid not null,
      id text not null,
      embedder text not null,
      signature bit(256) not null,
      primary key (project_id, id),
      foreign key (project_id, id) references rag.chunks (project_id, id) on delete cascade
    );
    insert into rag.chunk_signatures (project_id, id, embedder, signature)
      select project_id, id, embedder, signature from rag.chunks where signature is not null;
    alter table rag.chunks drop column signature;
    analyze rag.chunk_signatures;
  `,
};
