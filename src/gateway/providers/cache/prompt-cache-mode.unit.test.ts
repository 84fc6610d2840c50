import { describe, expect, it } from 'vitest';
import { promptCacheFor, readPromptCacheMode } from './prompt-cache-mode.ts';

describe('FORJA_PROMPT_CACHE', () => {
  it('asks for the cache on the providers’ own APIs by default, elsewhere only when on', () => {
    expect(promptCacheFor({ kind: 'openai' }, 'auto')).toBe(true);
    expect(promptCacheFor({ kind: 'openai', baseUrl: 'https://api.openai.com/v1' }, 'auto')).toBe(
      true,
    );
    expect(
      promptCacheFor({ kind: 'anthropic', baseUrl: 'https://api.anthropic.com' }, 'auto'),
    ).toBe(true);
    expect(promptCacheFor({ kind: 'openai', baseUrl: 'http://127.0.0.1:11434/v1' }, 'auto')).toBe(
      false,
    );
    expect(promptCacheFor({ kind: 'openai', baseUrl: 'http://127.0.0.1:11434/v1' }, 'on')).toBe(
      true,
    );
    expect(promptCacheFor({ kind: 'anthropic' }, 'off')).toBe(false);
  });

  it('refuses another value, naming the variable and the rule', () => {
    expect(readPromptCacheMode({})).toEqual({ ok: true, mode: 'auto' });
    expect(readPromptCacheMode({ FORJA_PROMPT_CACHE: 'yes' })).toEqual({
      ok: false,
      variable: 'FORJA_PROMPT_CACHE',
      message: 'FORJA_PROMPT_CACHE must be auto, on or off, not "yes".',
    });
  });
});
