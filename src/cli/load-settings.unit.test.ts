import { describe, expect, it } from 'vitest';
import { loadSettings } from './load-settings.ts';

describe('loadSettings', () => {
  it.each([
    [{ FORJA_TOKENIZER: 'tiktoken' }, 'FORJA_TOKENIZER'],
    [{ FORJA_MODEL: 'gpt-4o' }, 'FORJA_MODEL'],
    [{ FORJA_MODEL: 'gemini:pro' }, 'FORJA_MODEL'],
    [{ FORJA_MODEL: 'openai:gpt-4o-mini' }, 'OPENAI_API_KEY'],
    [{ FORJA_MODEL: 'scripted:/nowhere/forja-script.json' }, 'FORJA_MODEL'],
    [{ OPENAI_BASE_URL: 'not-a-url' }, 'OPENAI_BASE_URL'],
    [
      {
        FORJA_MODEL: 'anthropic:claude',
        ANTHROPIC_API_KEY: 'sk-ant-1',
        ANTHROPIC_BASE_URL: 'not-a-url',
      },
      'ANTHROPIC_BASE_URL',
    ],
    [{ FORJA_TERMINAL_MODE: 'always' }, 'FORJA_TERMINAL_MODE'],
    [{ FORJA_PROMPT_CACHE: 'sometimes' }, 'FORJA_PROMPT_CACHE'],
    [{ FORJA_PRICES: '/nowhere/prices.json' }, 'FORJA_PRICES'],
    [{ FORJA_TERMINAL_TIMEOUT_SECONDS: '0' }, 'FORJA_TERMINAL_TIMEOUT_SECONDS'],
    [{ FORJA_TERMINAL_ALLOW_UNSANDBOXED: 'perhaps' }, 'FORJA_TERMINAL_ALLOW_UNSANDBOXED'],
    [{ FORJA_SANDBOX_MAX_PROCESSES: 'many' }, 'FORJA_SANDBOX_MAX_PROCESSES'],
    [{ FORJA_SANDBOX_TMP_MB: '0' }, 'FORJA_SANDBOX_TMP_MB'],
    [{ FORJA_COMMIT_MAX_MB: '-5' }, 'FORJA_COMMIT_MAX_MB'],
    [{ FORJA_GIT_TIMEOUT_SECONDS: '3601' }, 'FORJA_GIT_TIMEOUT_SECONDS'],
    [{ FORJA_EMBEDDING_MODEL: 'anthropic:x' }, 'FORJA_EMBEDDING_MODEL'],
    [
      {
        FORJA_EMBEDDING_MODEL: 'openai:e',
        OPENAI_API_KEY: 'sk-1',
        FORJA_EMBEDDING_DIMENSIONS: 'many',
      },
      'FORJA_EMBEDDING_DIMENSIONS',
    ],
    [{ FORJA_MODEL_CONTEXT_TOKENS: 'lots' }, 'FORJA_MODEL_CONTEXT_TOKENS'],
    [{ FORJA_MODEL_DEV: 'gpt-4o' }, 'FORJA_MODEL_DEV'],
    [{ FORJA_MODEL_CONTEXT_MANAGER: 'ollama:qwen' }, 'FORJA_MODEL_CONTEXT_MANAGER'],
    [{ FORJA_MODEL_PO: 'anthropic:claude-sonnet-4-5' }, 'FORJA_MODEL_PO_API_KEY'],
    [
      { FORJA_MODEL_ARQUITETO: 'openai:m', FORJA_MODEL_ARQUITETO_BASE_URL: 'localhost:8000' },
      'FORJA_MODEL_ARQUITETO_BASE_URL',
    ],
    [{ FORJA_MODEL_DEV_BASE_URL: 'http://127.0.0.1:8000/v1' }, 'FORJA_MODEL_DEV_BASE_URL'],
    [{ FORJA_MODEL_DEVS: 'openai:m' }, 'FORJA_MODEL_DEVS'],
    [{ FORJA_STRICT_TOOLS: 'yes' }, 'FORJA_STRICT_TOOLS'],
    [{ FORJA_MODEL_PSICOLOGO: 'scripted:/nowhere/forja-script.json' }, 'FORJA_MODEL_PSICOLOGO'],
    [{ PORT: 'eighty' }, 'PORT'],
    [{ FORJA_LANE_LEASE_SECONDS: '0' }, 'FORJA_LANE_LEASE_SECONDS'],
    [{ FORJA_LANE_LEASE_SECONDS: '2.5' }, 'FORJA_LANE_LEASE_SECONDS'],
    [{ FORJA_LANE_LEASE_SECONDS: 'soon' }, 'FORJA_LANE_LEASE_SECONDS'],
    [{ FORJA_LANE_LEASE_SECONDS: '3601' }, 'FORJA_LANE_LEASE_SECONDS'],
    [{ FORJA_STREAM_BUFFER_BYTES: '4MiB' }, 'FORJA_STREAM_BUFFER_BYTES'],
    [{ FORJA_STREAM_BUFFER_BYTES: '1000' }, 'FORJA_STREAM_BUFFER_BYTES'],
    [{ FORJA_STREAM_BUFFER_BYTES: '-1' }, 'FORJA_STREAM_BUFFER_BYTES'],
    [{ FORJA_STREAM_BUFFER_BYTES: '1e7' }, 'FORJA_STREAM_BUFFER_BYTES'],
    [{ FORJA_MAX_ANSWER_CHARS: '1Mi' }, 'FORJA_MAX_ANSWER_CHARS'],
    [{ FORJA_MAX_TOOL_CALLS: '0' }, 'FORJA_MAX_TOOL_CALLS'],
    [{ FORJA_MAX_TOOL_ARGUMENT_CHARS: '100' }, 'FORJA_MAX_TOOL_ARGUMENT_CHARS'],
    [{ FORJA_MODEL_OUTPUT_TOKENS_PO: '32k' }, 'FORJA_MODEL_OUTPUT_TOKENS_PO'],
    [{ FORJA_MODEL_OUTPUT_TOKENS_DEV: '100' }, 'FORJA_MODEL_OUTPUT_TOKENS_DEV'],
    [{ FORJA_MODEL_OUTPUT_TOKENS_REVISOR: '4096' }, 'FORJA_MODEL_OUTPUT_TOKENS_REVISOR'],
    [{ FORJA_MODEL_OUTPUT_TOKENS: '4096' }, 'FORJA_MODEL_OUTPUT_TOKENS'],
  ])('names the variable that is wrong: %o', (env, variable) => {
    const loaded = loadSettings(env);
    expect(loaded).toMatchObject({ ok: false, error: { variable } });
    expect(loaded.ok === false && loaded.error.message).toContain(variable);
  });

  it('accepts an unset model, and a model that is well formed even if its endpoint is not up yet', () => {
    expect(loadSettings({}).ok).toBe(true);
    expect(
      loadSettings({ FORJA_MODEL: 'openai:llama3.1', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }).ok,
    ).toBe(true);
  });

  it('takes a lane lease length in whole seconds', () => {
    expect(loadSettings({ FORJA_LANE_LEASE_SECONDS: '2' }).ok).toBe(true);
    expect(loadSettings({ FORJA_LANE_LEASE_SECONDS: '3600' }).ok).toBe(true);
  });

  it('never repeats a secret in the error', () => {
    const loaded = loadSettings({
      FORJA_MODEL: 'openai:m',
      OPENAI_API_KEY: 'sk-never-shown',
      OPENAI_BASE_URL: 'ftp://user:hunter2@host',
    });
    expect(loaded).toMatchObject({ ok: false, error: { variable: 'OPENAI_BASE_URL' } });
    expect(JSON.stringify(loaded)).not.toMatch(/hunter2|never-shown/);
  });
});
