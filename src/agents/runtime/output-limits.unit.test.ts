import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_OUTPUT_LIMITS, readOutputLimits } from './output-limits.ts';

const VARIABLES = {
  FORJA_MAX_ANSWER_CHARS: [1024, 64 * 1024 * 1024],
  FORJA_MAX_TOOL_CALLS: [1, 1024],
  FORJA_MAX_TOOL_ARGUMENT_CHARS: [1024, 64 * 1024 * 1024],
} as const;

describe('the output limits from the environment', () => {
  it('are the defaults when unset or empty', () => {
    expect(readOutputLimits({})).toEqual({ ok: true, limits: DEFAULT_OUTPUT_LIMITS });
    expect(readOutputLimits({ FORJA_MAX_TOOL_CALLS: ' ' })).toEqual({
      ok: true,
      limits: DEFAULT_OUTPUT_LIMITS,
    });
    expect(DEFAULT_OUTPUT_LIMITS).toEqual({
      maxAnswerChars: 1_048_576,
      maxToolCalls: 64,
      maxToolArgumentChars: 2_097_152,
    });
  });

  it('take every whole number in range', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1024, max: 64 * 1024 * 1024 }),
        fc.integer({ min: 1, max: 1024 }),
        fc.integer({ min: 1024, max: 64 * 1024 * 1024 }),
        (answer, calls, args) => {
          expect(
            readOutputLimits({
              FORJA_MAX_ANSWER_CHARS: String(answer),
              FORJA_MAX_TOOL_CALLS: ` ${calls} `,
              FORJA_MAX_TOOL_ARGUMENT_CHARS: String(args),
            }),
          ).toEqual({
            ok: true,
            limits: { maxAnswerChars: answer, maxToolCalls: calls, maxToolArgumentChars: args },
          });
        },
      ),
    );
  });

  it('refuse anything else, naming the variable and its range', () => {
    const names = Object.keys(VARIABLES) as Array<keyof typeof VARIABLES>;
    fc.assert(
      fc.property(
        fc.constantFrom(...names),
        fc.oneof(
          fc.string().filter((text) => !/^\s*\d+\s*$/.test(text) && text.trim() !== ''),
          fc.constantFrom('-1', '1.5', '1e6', '0x10', '99999999999999999999'),
          fc.integer({ min: 0, max: 1023 }).map(String),
        ),
        (variable, value) => {
          const [min, max] = VARIABLES[variable];
          fc.pre(
            !(variable === 'FORJA_MAX_TOOL_CALLS' && /^\d+$/.test(value) && Number(value) >= 1),
          );
          const read = readOutputLimits({ [variable]: value });
          expect(read).toEqual({
            ok: false,
            variable,
            message: `${variable} must be a whole number from ${min} to ${max}, not "${value}".`,
          });
        },
      ),
    );
    expect(readOutputLimits({ FORJA_MAX_TOOL_CALLS: '1025' })).toMatchObject({
      ok: false,
      variable: 'FORJA_MAX_TOOL_CALLS',
    });
  });
});
