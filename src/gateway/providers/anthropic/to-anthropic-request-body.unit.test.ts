import { describe, expect, it } from 'vitest';
import type { ModelRequest } from '../model-provider.ts';
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
});
