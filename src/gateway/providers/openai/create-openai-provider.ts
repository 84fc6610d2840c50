import {
  createStreamingHttpProvider,
  type HttpProviderOptions,
} from '../http/create-streaming-http-provider.ts';
import type { ModelProvider } from '../model-provider.ts';
import { decodeOpenAiStream } from './decode-openai-stream.ts';
import { toOpenAiRequestBody, type OpenAiMaxTokensField } from './to-openai-request-body.ts';

/** The official endpoint, used when no base URL is given. */
export const openAiDefaultBaseUrl = 'https://api.openai.com/v1';

export type OpenAiProviderOptions = HttpProviderOptions & {
  /** Optional: local servers (Ollama, vLLM, LM Studio, llama.cpp) usually need none. */
  apiKey?: string;
  /** Up to and including `/v1`, as OpenAI-compatible servers document it. */
  baseUrl?: string;
  /** Defaults to `max_completion_tokens` on api.openai.com and `max_tokens` elsewhere. */
  maxTokensField?: OpenAiMaxTokensField;
};

/** A ModelProvider speaking the OpenAI Chat Completions streaming protocol. */
export function createOpenAiProvider(options: OpenAiProviderOptions): ModelProvider {
  const baseUrl = (options.baseUrl ?? openAiDefaultBaseUrl).replace(/\/+$/, '');
  const maxTokensField =
    options.maxTokensField ??
    (baseUrl === openAiDefaultBaseUrl ? 'max_completion_tokens' : 'max_tokens');
  return createStreamingHttpProvider(options, {
    name: 'openai',
    url: `${baseUrl}/chat/completions`,
    headers:
      options.apiKey === undefined || options.apiKey === ''
        ? {}
        : { authorization: `Bearer ${options.apiKey}` },
    body: (request, strict) =>
      toOpenAiRequestBody({
        model: options.model,
        request,
        maxTokensField,
        strict,
        promptCache: options.promptCache ?? false,
      }),
    decode: decodeOpenAiStream,
  });
}
