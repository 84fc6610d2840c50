export type { EmbeddingProvider } from './embedding-provider.ts';
export {
  createEmbeddingGateway,
  type EmbeddingGateway,
  type EmbeddingOutcome,
  type EmbeddingRequest,
} from './embedding-gateway.ts';
export {
  createEmbeddingProviderFromConfig,
  PROVIDER_EMBEDDING_DIMENSIONS,
  type EmbeddingProviderConfig,
} from './create-embedding-provider-from-config.ts';
export {
  createOpenAiEmbeddingProvider,
  type OpenAiEmbeddingOptions,
} from './create-openai-embedding-provider.ts';
