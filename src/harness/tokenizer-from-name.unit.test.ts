import { describe, expect, it } from 'vitest';
import { createBpeTokenizer } from './bpe-tokenizer.ts';
import { estimateTokenizer } from './estimate-tokenizer.ts';
import { isTokenizerName, tokenizerFromName } from './tokenizer-from-name.ts';
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
    await expect(attempt).rejects.toMatchObject({ name: 'UnknownTokenizerError', tokenizerName: 'tiktoken' });
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
