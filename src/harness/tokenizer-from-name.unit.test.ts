import { describe, expect, it } from 'vitest';
import { createBpeTokenizer } from './bpe-tokenizer.ts';
import { estimateTokenizer } from './estimate-tokenizer.ts';
import { bpeChunks } from './bpe-tokenizer.ts';
import fc from 'fast-check';
import {
  defaultTokenizerNameForModel,
  isTokenizerName,
  tokenizerFromName,
  tokenizerNameFromEnvironment,
} from './tokenizer-from-name.ts';
import { UnknownTokenizerError } from './unknown-tokenizer-error.ts';

describe('tokenizerFromName', () => {
  it('gives the estimate by default name', async () => {
    expect(await tokenizerFromName('estimate')).toBe(estimateTokenizer);
  });

  it('gives an exact o200k_base BPE tokenizer for bpe', async () => {
    const bpe = await tokenizerFromName('bpe');
    expect(bpe.name).toBe('bpe:o200k_base');
    expect(bpe.count('hello world')).toEqual({ tokens: 2, estimated: false });
    expect(bpe.count('')).toEqual({ tokens: 0, estimated: false });
  });

  it('rejects any other name with a typed error', async () => {
    const attempt = tokenizerFromName('tiktoken');
    await expect(attempt).rejects.toBeInstanceOf(UnknownTokenizerError);
    await expect(attempt).rejects.toMatchObject({
      name: 'UnknownTokenizerError',
      tokenizerName: 'tiktoken',
    });
    expect(isTokenizerName('bpe')).toBe(true);
    expect(isTokenizerName('BPE')).toBe(false);
  });
});

describe('createBpeTokenizer', () => {
  it('counts text that mentions a special token as plain text instead of throwing', async () => {
    const bpe = await createBpeTokenizer('cl100k_base');
    expect(bpe.name).toBe('bpe:cl100k_base');
    expect(bpe.count('before <|endoftext|> after').tokens).toBeGreaterThan(3);
  });
});

describe('the server tokenizer (FORJA_TOKENIZER)', () => {
  it("defaults to the BPE of the model's family where one ships, else the conservative estimate", () => {
    expect(defaultTokenizerNameForModel('openai:gpt-4o-mini')).toBe('bpe:o200k_base');
    expect(defaultTokenizerNameForModel('openai:gpt-5')).toBe('bpe:o200k_base');
    expect(defaultTokenizerNameForModel('openai:o3')).toBe('bpe:o200k_base');
    expect(defaultTokenizerNameForModel('openai:gpt-4-turbo')).toBe('bpe:cl100k_base');
    expect(defaultTokenizerNameForModel('openai:llama3.1:8b')).toBe('conservative');
    expect(defaultTokenizerNameForModel('anthropic:claude-sonnet-4-5')).toBe('conservative');
    expect(defaultTokenizerNameForModel(undefined)).toBe('conservative');
  });

  it('takes FORJA_TOKENIZER over the default, and names the variable when it is wrong', () => {
    expect(
      tokenizerNameFromEnvironment({ FORJA_TOKENIZER: 'estimate', FORJA_MODEL: 'openai:gpt-4o' }),
    ).toBe('estimate');
    expect(
      tokenizerNameFromEnvironment({ FORJA_TOKENIZER: ' ', FORJA_MODEL: 'openai:gpt-4o' }),
    ).toBe('bpe:o200k_base');
    expect(() => tokenizerNameFromEnvironment({ FORJA_TOKENIZER: 'tiktoken' })).toThrow(
      /^FORJA_TOKENIZER="tiktoken": unknown tokenizer \(expected one of: estimate, conservative/,
    );
  });
});

describe('BPE in chunks', () => {
  it('counts exactly what it cuts only where a piece ends anyway', async () => {
    const bpe = await createBpeTokenizer('o200k_base');
    const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
    const words = fc.constantFrom(
      'a',
      'word',
      ' ',
      '  ',
      '\n',
      '{"k":',
      '1234',
      'é',
      '中文',
      '};\n',
      "'s",
      '\t',
    );
    fc.assert(
      fc.property(fc.array(words, { minLength: 4000, maxLength: 12_000 }), (parts) => {
        const text = parts.join('');
        const exact = bpeChunks(text).exact;
        if (!exact) return;
        expect(bpe.count(text)).toEqual({
          tokens: countTokens(text, { disallowedSpecial: new Set() }),
          estimated: false,
        });
      }),
      { numRuns: 30 },
    );
  });

  it('does not cut where a piece goes on across whitespace (punctuation takes the newlines after it)', async () => {
    const bpe = await createBpeTokenizer('o200k_base');
    const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
    for (const tail of ['x};\n\n  }', 'x;\n\t\treturn', 'x)\r\n', 'x.\n \n end']) {
      const text = `${'word '.repeat(819)}${tail}${' more'.repeat(10)}`;
      expect(bpe.count(text)).toEqual({
        tokens: countTokens(text, { disallowedSpecial: new Set() }),
        estimated: false,
      });
    }
  });

  it('cuts a long run without spaces, and says the count is then an estimate', async () => {
    const bpe = await createBpeTokenizer('o200k_base');
    const { chunks, exact } = bpeChunks('x'.repeat(100_000));
    expect(exact).toBe(false);
    expect(Math.max(...chunks.map((chunk) => chunk.length))).toBeLessThanOrEqual(512);
    expect(bpe.count('x'.repeat(100_000)).estimated).toBe(true);
    expect(bpeChunks('😀'.repeat(600)).chunks.every((chunk) => chunk.isWellFormed())).toBe(true);
  });
});
