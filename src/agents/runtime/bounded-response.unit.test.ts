import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_STORABLE_DEPTH } from '../../lib/storable-text.ts';
import { boundedResponse, boundedText, type ModelToolCall } from './bounded-response.ts';
import type { OutputLimits } from './output-limits.ts';

const limits: OutputLimits = { maxAnswerChars: 1024, maxToolCalls: 3, maxToolArgumentChars: 1024 };

const call = (index: number, args: Record<string, unknown> = { n: index }): ModelToolCall => ({
  id: `call_${index}`,
  name: 'note',
  rawArguments: JSON.stringify(args),
  arguments: args,
});

describe('what Forja takes of one answer', () => {
  it('keeps an answer within the limits as it came', () => {
    const calls = [call(1), call(2)];
    expect(boundedResponse('short', calls, limits)).toEqual({
      text: 'short',
      toolCalls: [
        { id: 'call_1', name: 'note', arguments: { n: 1 } },
        { id: 'call_2', name: 'note', arguments: { n: 2 } },
      ],
    });
  });

  it('takes at most the limit of calls, and one more refusal that names the limit', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 1, max: 70 }),
        (count, max) => {
          const calls = Array.from({ length: count }, (_, index) => call(index));
          const { toolCalls } = boundedResponse('', calls, { ...limits, maxToolCalls: max });
          expect(toolCalls).toHaveLength(Math.min(count, max + 1));
          expect(toolCalls.slice(0, max).every((taken) => taken.refused === undefined)).toBe(true);
          if (count > max) {
            expect(toolCalls[max]).toMatchObject({ id: `call_${max}`, arguments: null });
            expect(toolCalls[max]!.refused).toContain(
              `This answer made ${count} tool calls; Forja takes at most ${max} from one answer (FORJA_MAX_TOOL_CALLS)`,
            );
          }
        },
      ),
    );
  });

  it('cuts the text at the limit, never inside a surrogate pair, and says so', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 3000 }),
        fc.integer({ min: 1, max: 2000 }),
        (text, max) => {
          const bounded = boundedText(text, max);
          if (text.length <= max) return void expect(bounded).toBe(text);
          const [kept, note] = bounded.split('\n\n[Forja cut this answer at ');
          expect(text.startsWith(kept!)).toBe(true);
          expect(kept!.length).toBeLessThanOrEqual(max);
          expect(kept!.length).toBeGreaterThanOrEqual(max - 1);
          expect(kept!.isWellFormed() || !text.slice(0, kept!.length).isWellFormed()).toBe(true);
          expect(note).toBe(
            `${max} characters (FORJA_MAX_ANSWER_CHARS); the other ${text.length - kept!.length} characters were not stored.]`,
          );
        },
      ),
    );
  });

  it('refuses a call whose arguments pass the size limit, without keeping them', () => {
    const big = call(1, { content: 'x'.repeat(2000) });
    const [taken] = boundedResponse('', [big], limits).toolCalls;
    expect(taken).toEqual({
      id: 'call_1',
      name: 'note',
      arguments: null,
      refused: `The arguments of note were ${big.rawArguments.length} characters; Forja takes at most 1024 for one call (FORJA_MAX_TOOL_ARGUMENT_CHARS) — write a large file in parts. Nothing was run; call it again with arguments that fit.`,
    });
  });

  it("refuses the calls that would bring one answer's arguments past four times the limit, and takes the others", () => {
    const calls = Array.from({ length: 6 }, (_, index) => call(index, { text: 'z'.repeat(1000) }));
    const taken = boundedResponse('', calls, { ...limits, maxToolCalls: 10 }).toolCalls;
    expect(taken.map((recorded) => recorded.refused === undefined)).toEqual([
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
    expect(taken[4]!.refused).toContain(
      "would bring this answer's arguments past 4096 characters in all (4 × FORJA_MAX_TOOL_ARGUMENT_CHARS)",
    );
  });

  it('refuses a call whose arguments hold a NUL or a lone surrogate, naming where, or nest too deep', () => {
    const [nul, surrogate, key, fine] = boundedResponse(
      '',
      [
        call(1, { command: 'printf "a\u0000b"' }),
        call(2, { list: ['ok', '\uD800'] }),
        call(3, { 'k\u0000': 1 }),
        call(4, { text: 'olá 😀' }),
      ],
      { ...limits, maxToolCalls: 10 },
    ).toolCalls;
    expect(nul!.refused).toContain(
      'The arguments of note hold a NUL character or a lone surrogate at .command',
    );
    expect(surrogate!.refused).toContain('at .list[1]');
    expect(key!.refused).toContain('in a key at the arguments');
    expect(fine).toEqual({ id: 'call_4', name: 'note', arguments: { text: 'olá 😀' } });
    let deep: unknown = 1;
    for (let level = 0; level < 1000; level += 1) deep = [deep];
    const [tooDeep] = boundedResponse('', [call(5, { deep } as Record<string, unknown>)], {
      ...limits,
      maxToolArgumentChars: 1_000_000,
    }).toolCalls;
    expect(tooDeep!.refused).toContain(`nested deeper than ${MAX_STORABLE_DEPTH} levels`);
  });

  it('keeps a parse error as it was, and cuts ids and names that are too long', () => {
    const [broken, long] = boundedResponse(
      '',
      [
        { id: 'c1', name: 'note', rawArguments: '{', arguments: undefined, parseError: 'bad' },
        { id: 'i'.repeat(10_000), name: 'n'.repeat(10_000), rawArguments: '{}', arguments: {} },
      ],
      limits,
    ).toolCalls;
    expect(broken).toEqual({ id: 'c1', name: 'note', arguments: null, parse_error: 'bad' });
    expect(long!.id).toHaveLength(256);
    expect(long!.name).toHaveLength(256);
  });
});
