import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_OUTPUT_TOKENS,
  MIN_OUTPUT_TOKENS,
  OUTPUT_TOKEN_KINDS,
  outputTokensFor,
  outputTokensVariable,
  readOutputTokenCaps,
} from './output-tokens.ts';

const kind = fc.constantFrom(...OUTPUT_TOKEN_KINDS);

describe('the output caps per agent kind from the environment', () => {
  it('are none when unset or empty: every agent keeps its default', () => {
    expect(readOutputTokenCaps({})).toEqual({ ok: true, caps: {} });
    expect(readOutputTokenCaps({ FORJA_MODEL_OUTPUT_TOKENS_PO: ' ' })).toEqual({
      ok: true,
      caps: {},
    });
    expect(outputTokensFor({}, 'po', 16_384)).toBe(16_384);
  });

  it('take every whole number in range for its kind, and only that kind changes', () => {
    fc.assert(
      fc.property(
        kind,
        fc.integer({ min: MIN_OUTPUT_TOKENS, max: MAX_OUTPUT_TOKENS }),
        (one, tokens) => {
          const read = readOutputTokenCaps({ [outputTokensVariable(one)]: ` ${tokens} ` });
          expect(read).toEqual({ ok: true, caps: { [one]: tokens } });
          if (!read.ok) return;
          for (const other of OUTPUT_TOKEN_KINDS) {
            const slug = other === 'dev' ? 'dev:billing' : other;
            expect(outputTokensFor(read.caps, slug, 1234)).toBe(other === one ? tokens : 1234);
          }
        },
      ),
    );
  });

  it('refuse, naming the variable and the rule, a value that is not a whole number in range', () => {
    const bad = fc.oneof(
      fc.integer({ min: 0, max: MIN_OUTPUT_TOKENS - 1 }).map(String),
      fc.integer({ min: MAX_OUTPUT_TOKENS + 1, max: 10 ** 12 }).map(String),
      fc.constantFrom('4k', '1e4', '-512', '2048.5', 'lots', '0x800'),
    );
    fc.assert(
      fc.property(kind, bad, (one, value) => {
        const variable = outputTokensVariable(one);
        expect(readOutputTokenCaps({ [variable]: value })).toEqual({
          ok: false,
          variable,
          message: `${variable} must be a whole number of tokens from 256 to 200000, not "${value}".`,
        });
      }),
    );
  });

  it('refuse a variable that names no kind, listing the kinds', () => {
    for (const variable of [
      'FORJA_MODEL_OUTPUT_TOKENS',
      'FORJA_MODEL_OUTPUT_TOKENS_REVISOR',
      'FORJA_MODEL_OUTPUT_TOKENS_dev',
    ]) {
      const read = readOutputTokenCaps({ [variable]: '4096' });
      expect(read).toMatchObject({ ok: false, variable });
      expect(read.ok === false && read.message).toContain('CRIATIVO, PO, ARQUITETO, DEV');
    }
  });

  it('leave agents outside the kinds at their own cap', () => {
    expect(outputTokensFor({ po: 9000 }, 'context-manager', 512)).toBe(512);
    expect(outputTokensFor({ dev: 9000 }, 'dev:pedidos', 8192)).toBe(9000);
  });
});
