import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../model-provider.ts';
import { toOpenAiRequestBody } from './to-openai-request-body.ts';

const request: ModelRequest = {
  agent: 'criativo',
  system: 'You are Criativo.',
  messages: [
    { role: 'user', content: 'Hello' },
    {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'call_1', name: 'emit_artifact', rawArguments: '{"type":"x"' }],
    },
    { role: 'tool', toolCallId: 'call_1', content: 'invalid JSON', isError: true },
    { role: 'assistant', content: 'Done.' },
  ],
  tools: [
    { name: 'emit_artifact', description: 'Records an artifact.', parameters: { type: 'object' } },
  ],
  maxOutputTokens: 300,
  temperature: 0.2,
};

describe('toOpenAiRequestBody', () => {
  it('writes the Chat Completions streaming body', () => {
    expect(
      toOpenAiRequestBody({ model: 'gpt-4o-mini', request, maxTokensField: 'max_tokens' }),
    ).toEqual({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'You are Criativo.' },
        { role: 'user', content: 'Hello' },
        {
          role: 'assistant',
          content: null,
          // Broken arguments are replayed exactly as the model wrote them.
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'emit_artifact', arguments: '{"type":"x"' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'invalid JSON' },
        { role: 'assistant', content: 'Done.' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'emit_artifact',
            description: 'Records an artifact.',
            parameters: { type: 'object' },
          },
        },
      ],
      max_tokens: 300,
      temperature: 0.2,
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('leaves out an empty system prompt, empty tools and an unset temperature', () => {
    const body = toOpenAiRequestBody({
      model: 'm',
      request: {
        agent: 'po',
        system: '',
        messages: [{ role: 'user', content: 'Hi' }],
        tools: [],
        maxOutputTokens: 10,
      },
      maxTokensField: 'max_completion_tokens',
    });
    expect(body).toEqual({
      model: 'm',
      messages: [{ role: 'user', content: 'Hi' }],
      max_completion_tokens: 10,
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('sends the lane key as prompt_cache_key only when the endpoint takes it', () => {
    const request = {
      agent: 'po',
      system: '',
      messages: [{ role: 'user' as const, content: 'Hi' }],
      tools: [],
      maxOutputTokens: 5,
      cacheKey: 'forja-lane',
    };
    const field = (promptCache: boolean) =>
      toOpenAiRequestBody({ model: 'm', request, maxTokensField: 'max_tokens', promptCache })[
        'prompt_cache_key'
      ];
    expect(field(true)).toBe('forja-lane');
    expect(field(false)).toBeUndefined();
  });
});
