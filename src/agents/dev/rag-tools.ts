import { z } from 'zod';
import { type AgentTool, defineTool, type ToolContext } from '../runtime/agent-tool.ts';
import { MEMORY_EVENTS } from '../../domain/memory/index.ts';

/** How many fragments `rag_search` returns when the model does not say; at most `MAX_DEV_RAG_K`. */
const DEFAULT_DEV_RAG_K = 5;
const MAX_DEV_RAG_K = 20;
/** A fragment's text is shown up to this; the model can open the document with its file tools. */
const MAX_FRAGMENT_CHARS = 800;

/** One hit as the dev's tools see it (the memory's `RagHit`, narrowed to what is shown). */
export interface DevRagHit {
  readonly chunk_id: string;
  readonly source: string;
  readonly text: string;
  readonly score: number;
}

/** The project search a dev is given: always its own project, which comes from the loop, never the model. */
export type DevProjectSearch = (
  projectId: string,
  request: { query: string; k: number },
) => Promise<{
  hits: readonly DevRagHit[];
  degraded: boolean;
  reason?: string;
  parts: readonly string[];
}>;

const RagSearchSchema = z.strictObject({
  query: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(500, 'must be at most 500 characters')
    .describe('What you are looking for, in words.'),
  k: z
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(MAX_DEV_RAG_K, `must be at most ${MAX_DEV_RAG_K}`)
    .optional()
    .describe(`How many fragments (default ${DEFAULT_DEV_RAG_K}).`),
});

const chunkIds = z
  .array(z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'))
  .max(50, 'must list at most 50 ids');
const RagFeedbackSchema = z.strictObject({
  query: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(500, 'must be at most 500 characters')
    .describe('The query you searched with.'),
  helpful: chunkIds.describe('Ids of the fragments that helped.'),
  not_helpful: chunkIds.default([]).describe('Ids of the fragments that did not.'),
});

/**
 * `rag_search` (direct, record ADR 0200's dev tools): the project's fragments most relevant to a query — business
 * rules, agents' answers, the docs — scoped to the dev's own project by the loop. Says which searches ran and,
 * never hidden, when the search was degraded.
 */
export function ragSearchTool(search: DevProjectSearch): AgentTool {
  return defineTool({
    name: 'rag_search',
    description: `Search this project's business rules, decisions and docs: {query, k?}. Returns up to k fragments (default ${DEFAULT_DEV_RAG_K}) with their ids; say which helped with rag_feedback.`,
    parameters: RagSearchSchema,
    mode: 'direct',
    run: async ({ query, k }, context) => {
      const result = await search(context.projectId, { query, k: k ?? DEFAULT_DEV_RAG_K });
      if (result.degraded)
        return {
          ok: true,
          result: `degraded: true — the search failed (${result.reason ?? 'no reason given'}); go on without it.`,
        };
      if (result.hits.length === 0)
        return {
          ok: true,
          result: `No fragment of this project matches "${query}" (searched: ${result.parts.join(' + ')}).`,
        };
      const lines = result.hits.map(
        (hit, index) => `${index + 1}. [id: ${hit.chunk_id}] ${hit.source}\n${clip(hit.text)}`,
      );
      return {
        ok: true,
        result: `Fragments for "${query}" (searched: ${result.parts.join(' + ')}):\n${lines.join('\n')}`,
      };
    },
  });
}

/**
 * `rag_feedback` (direct): which fragments of an earlier `rag_search` helped. Recorded as `rag.feedback`, the
 * same event the person's feedback route writes; only ids this agent was shown are taken.
 */
export function ragFeedbackTool(): AgentTool {
  return defineTool({
    name: 'rag_feedback',
    description:
      'Say which fragments of an earlier rag_search helped: {query, helpful: [id, …], not_helpful?: [id, …]}.',
    parameters: RagFeedbackSchema,
    mode: 'direct',
    run: async ({ query, helpful, not_helpful }, context) => {
      const shown = idsShownTo(context);
      const unknown = [...helpful, ...not_helpful].filter((id) => !shown.has(id));
      if (unknown.length > 0)
        return {
          ok: false,
          result: `rag_feedback refused: ${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not the id of a fragment rag_search showed you. Use the ids in brackets of its results.`,
        };
      if (helpful.length + not_helpful.length === 0)
        return {
          ok: false,
          result: 'rag_feedback refused: name at least one fragment id in helpful or not_helpful.',
        };
      return {
        ok: true,
        result: `Recorded: ${helpful.length} helpful, ${not_helpful.length} not helpful.`,
        events: [
          MEMORY_EVENTS.ragFeedback.create(context.agent, { v: 1, query, helpful, not_helpful }),
        ],
      };
    },
  });
}

const ID_PATTERN = /\[id: ([^\]]+)\]/g;

/** Chunk ids in this agent's earlier `rag_search` results in the session. */
function idsShownTo(context: ToolContext): Set<string> {
  const ids = new Set<string>();
  for (const event of context.events) {
    if (event.type !== 'tool.completed') continue;
    const payload = event.payload as { agent?: string; tool?: string; result?: string };
    if (
      payload.agent !== context.agent ||
      payload.tool !== 'rag_search' ||
      typeof payload.result !== 'string'
    )
      continue;
    for (const match of payload.result.matchAll(ID_PATTERN)) ids.add(match[1]!);
  }
  return ids;
}

function clip(text: string): string {
  return text.length <= MAX_FRAGMENT_CHARS
    ? text
    : `${text.slice(0, MAX_FRAGMENT_CHARS)} [… ${text.length - MAX_FRAGMENT_CHARS} more characters]`;
}
