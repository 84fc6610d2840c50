import type { ModelProvider, ModelRequest } from '../model-provider.ts';

/** `provider`, with every request it is sent pushed to `requests` first: what a test reads of the prompts. */
export function recordingRequests(
  provider: ModelProvider,
  requests: ModelRequest[],
): ModelProvider {
  return {
    ...provider,
    stream: (request, options) => {
      requests.push(request);
      return provider.stream(request, options);
    },
  };
}
