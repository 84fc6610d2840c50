import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ModelMessage, ToolDefinition } from '../model-provider.ts';
import { messageProtocolViolations } from './message-protocol-violations.ts';
import {
  GO_ON_MESSAGE,
  NO_RESULT_RECORDED,
  toValidMessageProtocol,
} from './to-valid-message-protocol.ts';

const TOOL: ToolDefinition = {
  name: 'terminal',
  description: 'runs',
  parameters: { type: 'object' },
};
const id = fc.constantFrom('call_a', 'call_b', 'call_c');
const text = fc.constantFrom('', ' ', 'hello', 'Prazo às 20:00', '[#3] olá');
const message: fc.Arbitrary<ModelMessage> = fc.oneof(
  fc.record({ role: fc.constant('user' as const), content: text }),
  fc.record({ role: fc.constant('assistant' as const), content: text }),
  fc.record({
    role: fc.constant('assistant' as const),
    content: text,
    toolCalls: fc.array(
      fc.record({
        id,
        name: fc.constant('terminal'),
        rawArguments: fc.constant('{"command":"ls"}'),
      }),
      { minLength: 1, maxLength: 3 },
    ),
  }),
  fc.record({ role: fc.constant('tool' as const), toolCallId: id, content: text }),
);
const request = fc.record({
  messages: fc.array(message, { maxLength: 12 }),
  tools: fc.constantFrom<ToolDefinition[]>([], [TOOL]),
});

describe('the message protocol of the strictest provider', () => {
  it('any history becomes a request with no violation', () => {
    fc.assert(
      fc.property(request, (r) => {
        expect(messageProtocolViolations(toValidMessageProtocol(r))).toEqual([]);
      }),
      { numRuns: 2_000 },
    );
  });

  it('is idempotent, and leaves a valid request as it is', () => {
    fc.assert(
      fc.property(request, (r) => {
        const once = toValidMessageProtocol(r);
        expect(toValidMessageProtocol(once)).toEqual(once);
        if (messageProtocolViolations(r).length === 0) expect(once.messages).toEqual(r.messages);
      }),
      { numRuns: 1_000 },
    );
  });

  it('loses nothing the person said', () => {
    fc.assert(
      fc.property(request, (r) => {
        const out = JSON.stringify(toValidMessageProtocol(r).messages);
        for (const m of r.messages)
          if (m.role === 'user' && m.content.trim() !== '')
            expect(out).toContain(JSON.stringify(m.content).slice(1, -1));
      }),
    );
  });

  it("moves the person's message sent while a tool ran after that tool's result", () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: '[#1] build it' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c1', name: 'terminal', rawArguments: '{}' }],
      },
      { role: 'user', content: '[#2] the deadline is 20:00 now' },
      { role: 'tool', toolCallId: 'c1', content: 'ok' },
    ];
    expect(messageProtocolViolations({ messages, tools: [TOOL] })).toEqual([
      'message 2 (user) comes before the results of c1',
      'message 3 answers c1, not an open call',
    ]);
    expect(toValidMessageProtocol({ messages, tools: [TOOL] }).messages.map((m) => m.role)).toEqual(
      ['user', 'assistant', 'tool', 'user'],
    );
  });

  it('gives a call the log has no result for a result saying so', () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c1', name: 'terminal', rawArguments: '{}' }],
      },
    ];
    expect(toValidMessageProtocol({ messages, tools: [TOOL] }).messages.at(-1)).toEqual({
      role: 'tool',
      toolCallId: 'c1',
      content: NO_RESULT_RECORDED,
      isError: true,
    });
  });

  it('writes tool traffic as text when no tool is offered, and never ends on the assistant', () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: 'a rule' },
      {
        role: 'assistant',
        content: 'Noted.',
        toolCalls: [{ id: 'c1', name: 'emit_artifact', rawArguments: '{"x":1}' }],
      },
      { role: 'tool', toolCallId: 'c1', content: 'Recorded business_rule.' },
      { role: 'assistant', content: 'Anything else?' },
    ];
    expect(toValidMessageProtocol({ messages, tools: [] }).messages).toEqual([
      { role: 'user', content: 'a rule' },
      { role: 'assistant', content: 'Noted.\n[called emit_artifact {"x":1}]' },
      { role: 'user', content: '[result of emit_artifact] Recorded business_rule.' },
      { role: 'assistant', content: 'Anything else?' },
      { role: 'user', content: GO_ON_MESSAGE },
    ]);
  });

  it('opens a request that has no message of the person', () => {
    expect(toValidMessageProtocol({ messages: [], tools: [TOOL] }).messages).toEqual([
      { role: 'user', content: GO_ON_MESSAGE },
    ]);
  });
});
