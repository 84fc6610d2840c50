import { describe, expect, it } from 'vitest';
import { estimateRequestTokens, estimateTokens } from './estimate-tokens.ts';

describe('estimateTokens', () => {
  it('is ceil(utf8 bytes / 4)', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
    // "ç" and "ã" take two bytes each: 6 bytes.
    expect(estimateTokens('ação')).toBe(2);
  });

  it('counts the system prompt, the history and the tools of a request', () => {
    const bare = { agent: 'po', system: 'abcd', messages: [], tools: [], maxOutputTokens: 1 };
    expect(estimateRequestTokens(bare)).toBe(1);
    const full = {
      ...bare,
      messages: [{ role: 'user' as const, content: 'hello' }],
      tools: [{ name: 't', description: 'd', parameters: {} }],
    };
    expect(estimateRequestTokens(full)).toBe(
      estimateTokens('abcd' + JSON.stringify(full.messages) + JSON.stringify(full.tools)),
    );
  });
});
