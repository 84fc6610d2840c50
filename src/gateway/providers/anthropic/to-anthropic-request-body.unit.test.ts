import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ModelMessage, ModelRequest } from '../model-provider.ts';
import { anthropicCacheBreakpoints } from '../testing/from-wire-request.ts';
import { toAnthropicRequestBody } from './to-anthropic-request-body.ts';

const request: ModelRequest = {
  agent: 'arquiteto',
  system: 'You are the Arquiteto.',
  messages: [
    { role: 'user', content: 'Map the modules.' },
    {
      role: 'assistant',
      content: 'Declaring.',
      toolCalls: [
        { id: 'toolu_1', name: 'declare_module_contracts', rawArguments: '{"version":1}' },
        { id: 'toolu_2', name: 'emit_artifact', rawArguments: '{"type": "mod' },
      ],
    },
    { role: 'tool', toolCallId: 'toolu_1', content: 'declared' },
    { role: 'tool', toolCallId: 'toolu_2', content: 'arguments are not valid JSON', isError: true },
    { role: 'user', content: 'Go on.' },
  ],
  tools: [
    { name: 'emit_artifact', description: 'Records an artifact.', parameters: { type: 'object' } },
  ],
  maxOutputTokens: 1024,
};

describe('toAnthropicRequestBody', () => {
  it('writes the Messages streaming body, with every tool result of a turn in one user message', () => {
    expect(toAnthropicRequestBody({ model: 'claude-sonnet-4-5', request })).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      system: 'You are the Arquiteto.',
      messages: [
        { role: 'user', content: 'Map the modules.' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Declaring.' },
            {
              type: 'tool_use',
              id: 'toolu_1',
              name: 'declare_module_contracts',
              input: { version: 1 },
            },
            // Arguments the model broke cannot travel as an object; the tool result explains them.
            { type: 'tool_use', id: 'toolu_2', name: 'emit_artifact', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: 'declared' },
            {
              type: 'tool_result',
              tool_use_id: 'toolu_2',
              content: 'arguments are not valid JSON',
              is_error: true,
            },
            { type: 'text', text: 'Go on.' },
          ],
        },
      ],
      tools: [
        {
          name: 'emit_artifact',
          description: 'Records an artifact.',
          input_schema: { type: 'object' },
        },
      ],
      stream: true,
    });
  });

  it('leaves out an empty system prompt and empty tools, keeps a set temperature', () => {
    const body = toAnthropicRequestBody({
      model: 'm',
      request: {
        agent: 'po',
        system: '',
        messages: [{ role: 'user', content: 'Hi' }],
        tools: [],
        maxOutputTokens: 5,
        temperature: 0,
      },
    });
    expect(body).toEqual({
      model: 'm',
      max_tokens: 5,
      messages: [{ role: 'user', content: 'Hi' }],
      temperature: 0,
      stream: true,
    });
  });

  it('asks for the cache: breakpoints on the last tool, the system block, the last block and the previous user turn', () => {
    const body = toAnthropicRequestBody({ model: 'm', request, promptCache: true });
    expect(body['system']).toEqual([
      { type: 'text', text: 'You are the Arquiteto.', cache_control: { type: 'ephemeral' } },
    ]);
    expect(anthropicCacheBreakpoints(body)).toEqual([
      'tools[0]',
      'system[0]',
      'messages[0].content[0]',
      'messages[2].content[2]',
    ]);
    // Without the cache the body is unchanged.
    expect(anthropicCacheBreakpoints(toAnthropicRequestBody({ model: 'm', request }))).toEqual([]);
  });

  it('keeps the rolling breakpoint on the history, before a context update that changes every call', () => {
    const update = {
      role: 'user' as const,
      content: 'Atualização: mapa v2.',
      contextUpdate: true as const,
    };
    const body = toAnthropicRequestBody({
      model: 'm',
      request: { ...request, messages: [...request.messages, update] },
      promptCache: true,
    });
    expect(anthropicCacheBreakpoints(body)).toEqual([
      'tools[0]',
      'system[0]',
      'messages[0].content[0]',
      'messages[2].content[2]',
    ]);
    // The update rides in the same user turn as the results and the message, last.
    const messages = body['messages'] as Array<{ role: string; content: unknown[] }>;
    expect(messages).toHaveLength(3);
    expect(messages[2]?.content.at(-1)).toEqual({ type: 'text', text: 'Atualização: mapa v2.' });
  });

  it('never marks more than 4 breakpoints nor an empty text block, whatever the history', () => {
    const message = fc.oneof(
      fc.record({ role: fc.constant('user' as const), content: fc.string({ maxLength: 3 }) }),
      fc.record({ role: fc.constant('assistant' as const), content: fc.string({ maxLength: 3 }) }),
      fc.record({
        role: fc.constant('tool' as const),
        toolCallId: fc.constant('t'),
        content: fc.string({ maxLength: 3 }),
      }),
    );
    fc.assert(
      fc.property(
        fc.array(message as fc.Arbitrary<ModelMessage>, { maxLength: 12 }),
        fc.nat(3),
        fc.string({ maxLength: 3 }),
        (messages, toolCount, system) => {
          const tools = Array.from({ length: toolCount }, (_, index) => ({
            name: `t${index}`,
            description: '',
            parameters: { type: 'object' },
          }));
          const body = toAnthropicRequestBody({
            model: 'm',
            request: { ...request, system, messages, tools },
            promptCache: true,
          });
          const where = anthropicCacheBreakpoints(body);
          expect(where.length).toBeLessThanOrEqual(4);
          expect(where.filter((at) => at.startsWith('tools'))).toEqual(
            toolCount === 0 ? [] : [`tools[${toolCount - 1}]`],
          );
          const marked = JSON.stringify(body).match(/"text":"","cache_control"/g);
          expect(marked).toBeNull();
        },
      ),
    );
  });
});
