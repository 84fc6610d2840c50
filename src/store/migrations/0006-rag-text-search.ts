import type { Migration } from './migration.ts';

/** The text-search configurations a chunk can be indexed in; `simple` neither stems nor drops stop words. */
export const RAG_TEXT_LANGUAGES = ['portuguese', 'english', 'simple'] as const;

/**
 * Full-text search beside the vectors (hybrid search, decision 0024). Each chunk records the language it is
 * written in, and `tsv` is computed by PostgreSQL from the text in that language's configuration, so
 * "entregas" and "entrega" share a stem. Accents are folded first by `rag.fold_accents`, which uses the
 * `unaccent` extension where the database has it (PGlite loads it; Debian's server ships it) and is the
 * identity elsewhere — the search still runs, only accents then count. It also adds each vector's signature
 * for the search without pgvector (decision 0024).
 */
export const ragTextSearch: Migration = {
  version: 6,
  name: 'rag-text-search',
  sql: `
    do $$
    declare
      folding text := 'select value';
    begin
      if exists (select 1 from pg_available_extensions where name = 'unaccent') then
        begin
          create extension if not exists unaccent;
          folding := 'select public.unaccent(''public.unaccent''::regdictionary, value)';
        exception when insufficient_privilege then
          raise notice 'unaccent is available but this role may not create it: search will not fold accents';
        end;
      end if;
      -- unaccent() is only stable (its dictionary could change); a generated column needs an immutable
      -- function, and Forja never changes the dictionary.
      execute format('create function rag.fold_accents(value text) returns text language sql immutable parallel safe as %L', folding);
    end $$;

    alter table rag.chunks
      add column language text not null default 'simple' check (language in ('portuguese', 'english', 'simple'));
    alter table rag.chunks
      add column tsv tsvector generated always as (
        case language
          when 'portuguese' then to_tsvector('portuguese', rag.fold_accents(text))
          when 'english' then to_tsvector('english', rag.fold_accents(text))
          else to_tsvector('simple', rag.fold_accents(text))
        end
      ) stored;
    create index rag_chunks_tsv on rag.chunks using gin (tsv);

    -- The vector's 256-bit random-hyperplane signature (see src/memory/rag/vector-signature.ts): where there is
    -- no pgvector, a scan of signatures picks candidates that the exact dot product ranks.
    alter table rag.chunks add column signature bit(256);
  `,
};
