import type { Migration } from './migration.ts';

/** The dimension of the HNSW column; embeddings of another dimension are searched exactly. */
export const RAG_VECTOR_DIMENSION = 256;

/**
 * The RAG index (record ADR 0101): project fragments cut into chunks, each with its embedding. A derived index of
 * the event log (and of the workspace docs), rebuilt by `forja rag rebuild`.
 *
 * `embedding real[]` is always stored, L2-normalised, so cosine similarity is a dot product and the exact
 * search works on every PostgreSQL. Where the pgvector extension is available (PGlite loads it; a server may
 * have it) the same vector is also kept in `embedding_vector` with an HNSW index on cosine distance.
 */
export const rag: Migration = {
  version: 5,
  name: 'rag',
  sql: `
    create schema rag;

    create table rag.chunks (
      id text not null,
      project_id uuid not null references projects (id),
      source_kind text not null check (source_kind in ('artifact', 'agent_response', 'doc')),
      source_id text not null,
      source_label text not null,
      chunk_index integer not null check (chunk_index >= 0),
      text text not null,
      embedder text not null,
      embedding real[] not null,
      created_at timestamptz not null default now(),
      primary key (project_id, id)
    );
    create index rag_chunks_by_source on rag.chunks (project_id, source_id);

    do $$
    begin
      if exists (select 1 from pg_available_extensions where name = 'vector') then
        create extension if not exists vector;
        execute 'alter table rag.chunks add column embedding_vector vector(${RAG_VECTOR_DIMENSION})';
        execute 'create index rag_chunks_hnsw on rag.chunks using hnsw (embedding_vector vector_cosine_ops)';
      end if;
    end $$;
  `,
};
