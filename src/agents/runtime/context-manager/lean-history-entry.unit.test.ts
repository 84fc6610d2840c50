import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatHistoryEntry } from '../../../domain/conversation/index.ts';
import { LEAN_MIN_CHARS, leanHistoryEntry } from './lean-history-entry.ts';

const text = fc.oneof(fc.string({ maxLength: 50 }), fc.string({ minLength: 401, maxLength: 3000 }));
const entry: fc.Arbitrary<ChatHistoryEntry> = fc.oneof(
  fc.record({
    role: fc.constant('user' as const),
    content: text,
    to: fc.constant('dev:api'),
    seq: fc.nat(),
    event_id: fc.constant('e'),
  }),
  fc.record({
    role: fc.constant('assistant' as const),
    agent: fc.constant('dev:api'),
    content: text,
    tool_calls: fc.array(
      fc.record({
        id: fc.constant('c'),
        name: fc.constant('write_file'),
        arguments: fc.oneof(
          fc.record({ path: fc.constant('src/a.js'), content: text }),
          fc.constant(null),
        ),
      }),
      { maxLength: 3 },
    ),
    seq: fc.nat(),
    event_id: fc.constant('e'),
  }),
  fc.record({
    role: fc.constant('tool' as const),
    agent: fc.constant('dev:api'),
    tool_call_id: fc.constant('c'),
    tool: fc.constant('terminal'),
    args: fc.constant({}),
    ok: fc.boolean(),
    content: text,
    seq: fc.nat(),
    event_id: fc.constant('e'),
  }),
);

describe('a lean history entry', () => {
  it('is idempotent, keeps what the person and the model said, and leaves no long payload', () => {
    fc.assert(
      fc.property(entry, (original) => {
        const lean = leanHistoryEntry(original);
        expect(leanHistoryEntry(lean)).toEqual(lean);
        if (original.role !== 'tool') expect(lean.content).toBe(original.content);
        const payloads =
          lean.role === 'assistant'
            ? (lean.tool_calls ?? []).flatMap((call) => Object.values(call.arguments ?? {}))
            : [];
        for (const value of payloads)
          if (typeof value === 'string') expect(value.length).toBeLessThanOrEqual(LEAN_MIN_CHARS);
        if (lean.role === 'tool' && original.content.length > LEAN_MIN_CHARS)
          expect(lean.content).toContain(`guardado no evento #${original.seq}`);
      }),
    );
  });

  it('returns an entry with nothing long as the same object, so a request that did not change stays identical', () => {
    fc.assert(
      fc.property(entry, (original) => {
        const changed = leanHistoryEntry(original) !== original;
        const hasLong =
          (original.role === 'tool' && original.content.length > LEAN_MIN_CHARS) ||
          (original.role === 'assistant' &&
            (original.tool_calls ?? []).some(
              (call) =>
                typeof (call.arguments as { content?: string } | null)?.content === 'string' &&
                (call.arguments as { content: string }).content.length > LEAN_MIN_CHARS,
            ));
        expect(changed).toBe(hasLong);
      }),
    );
  });

  it('names the file a write_file wrote and how to see it now', () => {
    const written: ChatHistoryEntry = {
      role: 'assistant',
      agent: 'dev:api',
      content: '',
      tool_calls: [
        {
          id: 'c',
          name: 'write_file',
          arguments: { path: 'src/x.js', content: 'x'.repeat(30_112) },
        },
      ],
      seq: 123,
      event_id: 'e',
    };
    expect(leanHistoryEntry(written)).toMatchObject({
      tool_calls: [
        {
          arguments: {
            path: 'src/x.js',
            content:
              '[30112 caracteres, guardados no evento #123; read_file src/x.js mostra o arquivo como está agora]',
          },
        },
      ],
    });
  });
});
