// The relational memory's public surface (record ADR 0101): named exports only.
export type {
  EdgeWrite,
  GraphEdge,
  GraphNode,
  GraphProperties,
  GraphSnapshot,
  GraphStore,
  Neighbour,
  NodeRef,
  NodeWrite,
} from './graph/graph-store.ts';
export { GraphUnavailableError } from './graph/graph-unavailable-error.ts';
export { createPostgresGraphStore } from './graph/postgres-graph-store.ts';
export { createInMemoryGraphStore } from './graph/in-memory-graph-store.ts';

export { MEMORY_EVENT_TYPES } from '../domain/memory/memory-event-types.ts';
export {
  AnamneseProfileRecordedPayloadSchema,
  AnamneseProfileRefusedPayloadSchema,
  COMPETENCE_LEVELS,
  HypothesisAnsweredPayloadSchema,
  HypothesisProposedPayloadSchema,
  RagFeedbackPayloadSchema,
  SessionEndedPayloadSchema,
  type AnamneseProfileRecordedPayload,
  type HypothesisProposedPayload,
} from '../domain/memory/memory-event-payloads.ts';

export {
  GRAPH_PROJECTION_AGGREGATE,
  graphProjectionRule,
} from './projection/graph-projection-rule.ts';
export {
  createGraphProjector,
  DEFAULT_PROJECTOR_INTERVAL_MS,
  type GraphProjector,
  type GraphProjectorOptions,
} from './projection/graph-projector.ts';
export { isGraphProjected, projectEvent } from './projection/project-event.ts';
export type { ProjectedEvent, ProjectionOutcome } from './projection/projected-event.ts';
export { rebuildGraph, type GraphRebuildOutcome } from './projection/rebuild-graph.ts';
export {
  queryUserContext,
  type EvidenceView,
  type HypothesisView,
  type ProfileView,
  type UserContext,
} from './projection/query-user-context.ts';
export { LABELS, SEEDED_LABELS } from './projection/graph-vocabulary.ts';

export {
  decideHypothesisAnswer,
  type HypothesisAnswer,
  type HypothesisAnswerDecision,
} from './hypotheses/decide-hypothesis-answer.ts';

export { FIRST_BATCH_TEMPLATES } from './templates/first-batch-templates.ts';
export { createGraphInstructionTemplateSource } from './templates/graph-instruction-template-source.ts';
export { resolveTemplate, type ResolvedTemplate } from './templates/resolve-template.ts';
export { seedTemplates, type SeedTemplatesOutcome } from './templates/seed-templates.ts';
export { instructionTemplateName, TEMPLATE_NAMES } from '../domain/memory/template-names.ts';
export {
  readCurrentTemplate,
  seedTemplate,
  type PromptTemplate,
  type SeedOutcome,
} from './templates/template-store.ts';

export type { Embedder, EmbedOutcome } from './rag/embedder.ts';
export {
  createLocalEmbedder,
  embedLocally,
  LOCAL_EMBEDDER_NAME,
  LOCAL_EMBEDDING_DIMENSION,
} from './rag/hashed-ngram-embedder.ts';
export { createGatewayEmbedder } from './rag/gateway-embedder.ts';
export { chunkText } from './rag/chunk-text.ts';
export type { IndexedChunk, ProjectFragment, RagHit } from './rag/project-fragment.ts';
export type { SearchMethod, SearchPart, VectorIndex } from './rag/vector-index.ts';
export {
  createPostgresVectorIndex,
  DEFAULT_EF_SEARCH,
  hasVectorColumn,
  type PostgresVectorIndexOptions,
} from './rag/postgres-vector-index.ts';
export {
  MAX_RAG_K,
  ragSearch,
  type RagSearchRequest,
  type RagSearchResult,
} from './rag/rag-search.ts';
export { RAG_INDEX_AGGREGATE, ragIndexRule } from './rag/rag-index-rule.ts';
export { createRagIndexer, type RagIndexer } from './rag/rag-indexer.ts';
export {
  rebuildRagIndex,
  type RagRebuildOutcome,
  type ReadProjectDocuments,
} from './rag/rebuild-rag-index.ts';
export { recordRagFeedback, type RagFeedback } from './rag/rag-feedback.ts';
export {
  composeTriageWithRag,
  type ProjectRagSearch,
  type TriageWithRag,
} from './rag/compose-triage-with-rag.ts';
export { createMemory, type Memory, type MemoryOptions } from './create-memory.ts';
export { wakeOnAppends } from './workers/wake-on-appends.ts';
