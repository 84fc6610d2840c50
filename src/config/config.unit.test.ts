import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_PARALLEL_TURNS, DEFAULT_PORT, loadConfig } from './config.ts';
import { DEFAULT_FEATURE_FLAGS } from './feature-flags.ts';

describe('loadConfig', () => {
  it('defaults to embedded storage under ./.forja on 127.0.0.1:4321', () => {
    expect(loadConfig({}, '/work/x')).toEqual({
      ok: true,
      config: { host: '127.0.0.1', port: DEFAULT_PORT, dataDirectory: '/work/x/.forja', databaseUrl: undefined, logLevel: 'info', flags: DEFAULT_FEATURE_FLAGS, publicUrls: [], maxParallelTurns: DEFAULT_MAX_PARALLEL_TURNS, databasePoolSize: 10 },
    });
  });

  it('takes FORJA_MAX_PARALLEL_TURNS, 4 by default', () => {
    expect(DEFAULT_MAX_PARALLEL_TURNS).toBe(4);
    expect(loadConfig({ FORJA_MAX_PARALLEL_TURNS: '1' })).toMatchObject({ ok: true, config: { maxParallelTurns: 1 } });
  });

  it('takes DATABASE_POOL_SIZE, 10 by default', () => {
    expect(loadConfig({ DATABASE_POOL_SIZE: '40' })).toMatchObject({ ok: true, config: { databasePoolSize: 40 } });
  });

  it('takes HOST, PORT, FORJA_DATA_DIR and DATABASE_URL', () => {
    const loaded = loadConfig({ HOST: '0.0.0.0', PORT: '8080', FORJA_DATA_DIR: 'data', DATABASE_URL: 'postgres://u@h/db' }, '/w');
    expect(loaded).toMatchObject({ ok: true, config: { host: '0.0.0.0', port: 8080, dataDirectory: '/w/data', databaseUrl: 'postgres://u@h/db' } });
  });

  it('takes FORJA_PUBLIC_URL as comma-separated addresses', () => {
    const loaded = loadConfig({ FORJA_PUBLIC_URL: 'https://forja.example.com, http://10.0.0.5:4321/' });
    expect(loaded.ok && loaded.config.publicUrls.map((url) => url.origin)).toEqual(['https://forja.example.com', 'http://10.0.0.5:4321']);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ PORT: '-1' }, 'PORT'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ FORJA_TOKENIZER: 'tiktoken' }, 'FORJA_TOKENIZER'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ ANAMNESE_ENABLED: 'maybe' }, 'ANAMNESE_ENABLED'],
    [{ FORJA_PUBLIC_URL: 'forja.example.com' }, 'FORJA_PUBLIC_URL'],
    [{ FORJA_PUBLIC_URL: 'https://forja.example.com/app' }, 'FORJA_PUBLIC_URL'],
    [{ FORJA_PUBLIC_URL: 'ftp://forja.example.com' }, 'FORJA_PUBLIC_URL'],
    [{ FORJA_MODEL: 'gpt-4o' }, 'FORJA_MODEL'],
    [{ FORJA_MODEL: 'gemini:pro' }, 'FORJA_MODEL'],
    [{ FORJA_MODEL: 'openai:gpt-4o-mini' }, 'OPENAI_API_KEY'],
    [{ FORJA_MODEL: 'scripted:/nowhere/forja-script.json' }, 'FORJA_MODEL'],
    [{ OPENAI_BASE_URL: 'not-a-url' }, 'OPENAI_BASE_URL'],
    [{ FORJA_MODEL: 'anthropic:claude', ANTHROPIC_API_KEY: 'sk-ant-1', ANTHROPIC_BASE_URL: 'not-a-url' }, 'ANTHROPIC_BASE_URL'],
    [{ FORJA_TERMINAL_MODE: 'always' }, 'FORJA_TERMINAL_MODE'],
    [{ FORJA_TERMINAL_TIMEOUT_SECONDS: '0' }, 'FORJA_TERMINAL_TIMEOUT_SECONDS'],
    [{ FORJA_TERMINAL_ALLOW_UNSANDBOXED: 'perhaps' }, 'FORJA_TERMINAL_ALLOW_UNSANDBOXED'],
    [{ FORJA_EMBEDDING_MODEL: 'anthropic:x' }, 'FORJA_EMBEDDING_MODEL'],
    [{ FORJA_EMBEDDING_MODEL: 'openai:e', OPENAI_API_KEY: 'sk-1', FORJA_EMBEDDING_DIMENSIONS: 'many' }, 'FORJA_EMBEDDING_DIMENSIONS'],
    [{ FORJA_MAX_PARALLEL_TURNS: '0' }, 'FORJA_MAX_PARALLEL_TURNS'],
    [{ FORJA_MAX_PARALLEL_TURNS: 'two' }, 'FORJA_MAX_PARALLEL_TURNS'],
    [{ FORJA_MAX_PARALLEL_TURNS: '1.5' }, 'FORJA_MAX_PARALLEL_TURNS'],
    [{ DATABASE_POOL_SIZE: '1' }, 'DATABASE_POOL_SIZE'],
    [{ DATABASE_POOL_SIZE: 'many' }, 'DATABASE_POOL_SIZE'],
  ])('names the variable that is wrong: %o', (env, variable) => {
    const loaded = loadConfig(env);
    expect(loaded).toMatchObject({ ok: false, error: { variable } });
    expect(loaded.ok === false && loaded.error.message).toContain(variable);
  });

  it('accepts an unset model, and a model that is well formed even if its endpoint is not up yet', () => {
    expect(loadConfig({}).ok).toBe(true);
    expect(loadConfig({ FORJA_MODEL: 'openai:llama3.1', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }).ok).toBe(true);
  });

  it('never repeats a secret in the error', () => {
    const loaded = loadConfig({ FORJA_MODEL: 'openai:m', OPENAI_API_KEY: 'sk-never-shown', OPENAI_BASE_URL: 'ftp://user:hunter2@host' });
    expect(loaded).toMatchObject({ ok: false, error: { variable: 'OPENAI_BASE_URL' } });
    expect(JSON.stringify(loaded)).not.toMatch(/hunter2|never-shown/);
  });
});

describe('feature flags', () => {
  it('are all off unless switched on by their own name', () => {
    expect(Object.values(DEFAULT_FEATURE_FLAGS).every((value) => value === false)).toBe(true);
    const loaded = loadConfig({ GRAPH_INSTRUCTION_TEMPLATES_ENABLED: 'true', PSYCHOLOGIST_ENABLED: '0' });
    expect(loaded.ok && loaded.config.flags).toEqual({ ...DEFAULT_FEATURE_FLAGS, graph_instruction_templates_enabled: true });
  });
});
