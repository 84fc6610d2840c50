import {
  composeTriageWindow,
  truncateText,
  type TriageFragment,
  type TriageWindow,
} from '../../domain/memory/index.ts';
import type { SessionEvent } from '../../store/index.ts';
import type { RagSearchRequest, RagSearchResult } from './rag-search.ts';

/** `rag_search` bound to a project, or null when the companion runs without RAG. */
export type ProjectRagSearch = ((request: RagSearchRequest) => Promise<RagSearchResult>) | null;

/** A degradation's reason is shown in full up to this; a driver's error message can be long. */
export const MAX_DEGRADED_REASON_CHARS = 300;

export interface TriageWithRag {
  readonly window: TriageWindow;
  /** What RAG did: not asked (no search, or no query), found hits, or degraded with the reason. */
  readonly rag: {
    readonly asked: boolean;
    readonly hits: number;
    readonly degraded: false | { readonly reason: string };
  };
}

/**
 * The companions' window (record ADR 0101): the recent events they always read, plus `rag_search` fragments for a
 * query derived from the trigger only. Fragments take slots from the recent window (`composeTriageWindow`);
 * as many are asked for as there are fragment slots. With no search, no query or no hit, the window is the
 * one without RAG, byte for byte; a degraded search adds only its `degraded: true` line.
 */
export async function composeTriageWithRag(input: {
  recentEvents: readonly SessionEvent[];
  maxPromptEvents: number;
  maxPayloadChars: number;
  search: ProjectRagSearch;
  query: string | null;
}): Promise<TriageWithRag> {
  const limits = {
    recentEvents: input.recentEvents,
    maxPromptEvents: input.maxPromptEvents,
    maxPayloadChars: input.maxPayloadChars,
  };
  const slots = Math.floor(input.maxPromptEvents / 2);
  if (input.search === null || input.query === null || slots === 0) {
    return {
      window: composeTriageWindow({ ...limits, ragFragments: [], degraded: false }),
      rag: { asked: false, hits: 0, degraded: false },
    };
  }
  const result = await input.search({ query: input.query, k: slots });
  const fragments: TriageFragment[] = result.hits.map((hit) => ({
    source: hit.source,
    text: hit.text,
    score: hit.score,
  }));
  const degraded = result.degraded
    ? { reason: truncateText(result.reason, MAX_DEGRADED_REASON_CHARS) }
    : (false as const);
  return {
    window: composeTriageWindow({
      ...limits,
      ragFragments: fragments,
      degraded,
      maxFragmentSlots: slots,
    }),
    rag: { asked: true, hits: fragments.length, degraded },
  };
}
