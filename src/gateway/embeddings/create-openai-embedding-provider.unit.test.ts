import { describe, expect, it } from 'vitest';
import { createEmbeddingProviderFromConfig } from './create-embedding-provider-from-config.ts';
import { createOpenAiEmbeddingProvider } from './create-openai-embedding-provider.ts';

function fakeFetch(
  status: number,
  body: unknown,
  seen: Array<{ url: string; init: RequestInit }> = [],
): typeof globalThis.fetch {
  return async (url, init) => {
    seen.push({ url: String(url), init: init ?? {} });
    return new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  };
}

describe('the OpenAI-compatible embedding provider', () => {
  it('posts the texts with the model and dimensions, and returns vectors in input order with the usage', async () => {
    const seen: Array<{ url: string; init: RequestInit }> = [];
    const provider = createOpenAiEmbeddingProvider({
      model: 'm',
      apiKey: 'sk-secret',
      baseUrl: 'http://localhost:11434/v1/',
      dimensions: 256,
      fetch: fakeFetch(
        200,
        {
          data: [
            { index: 1, embedding: [0, 1] },
            { index: 0, embedding: [1, 0] },
          ],
          usage: { prompt_tokens: 4 },
        },
        seen,
      ),
    });
    expect(await provider.embed(['a', 'b'], {})).toEqual({
      vectors: [
        [1, 0],
        [0, 1],
      ],
      inputTokens: 4,
    });
    expect(seen[0]!.url).toBe('http://localhost:11434/v1/embeddings');
    expect(JSON.parse(String(seen[0]!.init.body))).toEqual({
      model: 'm',
      input: ['a', 'b'],
      dimensions: 256,
    });
    expect((seen[0]!.init.headers as Record<string, string>).authorization).toBe(
      'Bearer sk-secret',
    );
  });

  it('turns an HTTP error or a malformed answer into an error naming it, without the key', async () => {
    const failing = createOpenAiEmbeddingProvider({
      model: 'm',
      apiKey: 'sk-secret',
      fetch: fakeFetch(401, { error: { message: 'bad key sk-secret' } }),
    });
    const error = (await failing.embed(['a'], {}).catch((caught: unknown) => caught)) as Error;
    expect(error.message).not.toContain('sk-secret');
    const malformed = createOpenAiEmbeddingProvider({
      model: 'm',
      fetch: fakeFetch(200, { data: [] }),
    });
    await expect(malformed.embed(['a'], {})).rejects.toThrow(/one numeric vector per input/);
  });
});

describe('FORJA_EMBEDDING_MODEL', () => {
  it('is the local embedder when unset, a provider when set, and a named error when wrong', () => {
    expect(createEmbeddingProviderFromConfig({})).toEqual({ ok: true, provider: null });
    const configured = createEmbeddingProviderFromConfig({
      FORJA_EMBEDDING_MODEL: 'openai:text-embedding-3-small',
      OPENAI_API_KEY: 'k',
    });
    expect(configured.ok && configured.provider?.model).toBe('text-embedding-3-small');
    expect(
      createEmbeddingProviderFromConfig({ FORJA_EMBEDDING_MODEL: 'anthropic:x' }),
    ).toMatchObject({ ok: false, message: expect.stringContaining('openai:<model>') });
    expect(createEmbeddingProviderFromConfig({ FORJA_EMBEDDING_MODEL: 'openai:m' })).toMatchObject({
      ok: false,
    });
    expect(
      createEmbeddingProviderFromConfig({
        FORJA_EMBEDDING_MODEL: 'openai:m',
        OPENAI_API_KEY: 'k',
        FORJA_EMBEDDING_DIMENSIONS: '0',
      }),
    ).toMatchObject({ ok: false, message: expect.stringContaining('FORJA_EMBEDDING_DIMENSIONS') });
  });
});
