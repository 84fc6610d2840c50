import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CONTEXT_TOKENS,
  NO_CONTEXT_WINDOW_SETTINGS,
  contextMarginTokens,
  contextWindowFor,
  historyBudget,
  modelFamilyWindow,
  readContextWindowSettings,
} from './context-window.ts';

const settingsOf = (env: Record<string, string>) => {
  const read = readContextWindowSettings(env);
  if (!read.ok) throw new Error(read.message);
  return read.settings;
};

describe('the context window', () => {
  it('knows well-known model families', () => {
    expect(modelFamilyWindow('gpt-4o-mini')).toEqual({ family: 'gpt-4o', tokens: 128_000 });
    expect(modelFamilyWindow('gpt-4.1-nano')?.tokens).toBe(1_047_576);
    expect(modelFamilyWindow('gpt-5-mini')?.tokens).toBe(400_000);
    expect(modelFamilyWindow('o3-mini')?.family).toBe('o-series');
    expect(modelFamilyWindow('o1-mini')?.tokens).toBe(128_000);
    expect(modelFamilyWindow('gpt-4')?.tokens).toBe(8_192);
    expect(modelFamilyWindow('claude-sonnet-4-5')?.tokens).toBe(200_000);
    expect(modelFamilyWindow('llama3.1:8b')?.tokens).toBe(128_000);
    expect(modelFamilyWindow('meta-llama/Llama-3-8B')?.tokens).toBe(8_192);
    expect(modelFamilyWindow('qwen2.5-coder:7b')?.tokens).toBe(32_768);
    expect(modelFamilyWindow('mistral-large-latest')?.tokens).toBe(128_000);
    expect(modelFamilyWindow('mistral:7b')?.tokens).toBe(32_768);
    expect(modelFamilyWindow('some-local-thing')).toBeNull();
  });

  it('takes the agent setting, then the global one, then the family, then the conservative default', () => {
    const settings = settingsOf({
      FORJA_MODEL_CONTEXT_TOKENS: '4000',
      FORJA_MODEL_CONTEXT_TOKENS_PO: '9000',
      FORJA_MODEL_CONTEXT_TOKENS_DEV: '7000',
      FORJA_MODEL_CONTEXT_TOKENS_DEV_BILLING: '6000',
    });
    expect(contextWindowFor(settings, 'gpt-4o', 'po')).toEqual({
      tokens: 9000,
      source: 'agent_setting',
      from: 'FORJA_MODEL_CONTEXT_TOKENS_PO',
      truncates_at: null,
      warning: null,
    });
    expect(contextWindowFor(settings, 'gpt-4o', 'dev:billing').tokens).toBe(6000);
    expect(contextWindowFor(settings, 'gpt-4o', 'dev:catalog')).toEqual({
      tokens: 7000,
      source: 'agent_setting',
      from: 'FORJA_MODEL_CONTEXT_TOKENS_DEV',
      truncates_at: null,
      warning: null,
    });
    expect(contextWindowFor(settings, 'gpt-4o', 'criativo')).toEqual({
      tokens: 4000,
      source: 'setting',
      from: 'FORJA_MODEL_CONTEXT_TOKENS',
      truncates_at: null,
      warning: null,
    });
    expect(contextWindowFor(NO_CONTEXT_WINDOW_SETTINGS, 'gpt-4o', 'criativo')).toEqual({
      tokens: 128_000,
      source: 'model_family',
      from: 'gpt-4o',
      truncates_at: null,
      warning: null,
    });
    expect(contextWindowFor(NO_CONTEXT_WINDOW_SETTINGS, 'scripted.json', 'criativo')).toEqual({
      tokens: DEFAULT_CONTEXT_TOKENS,
      source: 'default',
      from: 'default',
      truncates_at: null,
      warning: null,
    });
  });

  it("takes what the model's server said after the settings and before the family", () => {
    const ollama = {
      tokens: 8192,
      from: 'Ollama num_ctx',
      truncatesAt: 8192,
      note: null,
    };
    expect(contextWindowFor(NO_CONTEXT_WINDOW_SETTINGS, 'qwen2.5:7b', 'criativo', ollama)).toEqual({
      tokens: 8192,
      source: 'server',
      from: 'Ollama num_ctx',
      truncates_at: 8192,
      warning: null,
    });
    const vllm = { tokens: 65_536, from: 'vLLM max_model_len', truncatesAt: null, note: null };
    expect(contextWindowFor(NO_CONTEXT_WINDOW_SETTINGS, 'llama-3.1-8b', 'po', vllm).tokens).toBe(
      65_536,
    );
    expect(
      contextWindowFor(settingsOf({ FORJA_MODEL_CONTEXT_TOKENS: '6000' }), 'qwen', 'po', ollama),
    ).toMatchObject({ tokens: 6000, source: 'setting', truncates_at: 8192, warning: null });
  });

  it("keeps a setting past the server's silent cut, and warns that such requests are refused", () => {
    const window = contextWindowFor(
      settingsOf({ FORJA_MODEL_CONTEXT_TOKENS_DEV: '32768' }),
      'qwen',
      'dev:billing',
      { tokens: 8192, from: 'Ollama num_ctx', truncatesAt: 8192, note: null },
    );
    expect(window).toMatchObject({ tokens: 32_768, source: 'agent_setting', truncates_at: 8192 });
    expect(window.warning).toMatch(
      /^FORJA_MODEL_CONTEXT_TOKENS_DEV says 32768 tokens, but the model's server cuts prompts past 8192 without saying so \(Ollama num_ctx\)/,
    );
  });

  it('refuses a setting that is not a whole number in range, naming the variable', () => {
    expect(readContextWindowSettings({ FORJA_MODEL_CONTEXT_TOKENS: '4k' })).toEqual({
      ok: false,
      variable: 'FORJA_MODEL_CONTEXT_TOKENS',
      message:
        'FORJA_MODEL_CONTEXT_TOKENS must be a whole number of tokens from 1024 to 10000000, not "4k".',
    });
    expect(readContextWindowSettings({ FORJA_MODEL_CONTEXT_TOKENS_PO: '100' })).toMatchObject({
      ok: false,
      variable: 'FORJA_MODEL_CONTEXT_TOKENS_PO',
    });
    expect(readContextWindowSettings({ FORJA_MODEL_CONTEXT_TOKENS: '' })).toEqual({
      ok: true,
      settings: { global: null, perAgent: {} },
    });
  });

  it('leaves for history exactly the window less the fixed parts and the margin', () => {
    expect(
      historyBudget({
        windowTokens: 4000,
        systemTokens: 600,
        toolTokens: 200,
        maxOutputTokens: 1024,
      }),
    ).toBe(4000 - 600 - 200 - 1024 - 400);
    fc.assert(
      fc.property(
        fc.integer({ min: 1024, max: 2_000_000 }),
        fc.nat(50_000),
        fc.nat(10_000),
        fc.nat(10_000),
        (window, system, tools, output) => {
          const budget = historyBudget({
            windowTokens: window,
            systemTokens: system,
            toolTokens: tools,
            maxOutputTokens: output,
          });
          // Whatever fits the budget, the whole request still fits the window with the margin free.
          expect(budget + system + tools + output + contextMarginTokens(window)).toBe(window);
        },
      ),
    );
  });
});
