import {
  createStreamingHttpProvider,
  type HttpProviderOptions,
} from '../http/create-streaming-http-provider.ts';
import type { ModelProvider } from '../model-provider.ts';
import { decodeAnthropicStream } from './decode-anthropic-stream.ts';
import { toAnthropicRequestBody } from './to-anthropic-request-body.ts';

/** The official endpoint, used when no base URL is given. */
export const anthropicDefaultBaseUrl = 'https://api.anthropic.com';

/** The Messages API version this adapter speaks. */
export const anthropicApiVersion = '2023-06-01';

export type AnthropicProviderOptions = HttpProviderOptions & {
  /** Without `/v1`: the adapter appends `/v1/messages`, as the official clients do. */
  baseUrl?: string;
};

/** A ModelProvider speaking the Anthropic Messages streaming protocol. */
export function createAnthropicProvider(options: AnthropicProviderOptions): ModelProvider {
  const baseUrl = (options.baseUrl ?? anthropicDefaultBaseUrl).replace(/\/+$/, '');
  return createStreamingHttpProvider(options, {
    name: 'anthropic',
    url: `${baseUrl}/v1/messages`,
    headers: {
      'anthropic-version': anthropicApiVersion,
      ...(options.apiKey === undefined || options.apiKey === ''
        ? {}
        : { 'x-api-key': options.apiKey }),
    },
    body: (request, strict) =>
      toAnthropicRequestBody({
        model: options.model,
        request,
        strict,
        promptCache: options.promptCache ?? false,
      }),
    decode: decodeAnthropicStream,
  });
}
