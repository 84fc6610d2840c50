import { describe, expect, it } from 'vitest';
import { DEFAULT_PORT, loadConfig } from './config.ts';
import { DEFAULT_FEATURE_FLAGS } from './feature-flags.ts';

describe('loadConfig', () => {
  it('defaults to embedded storage under ./.forja on 127.0.0.1:4321', () => {
    expect(loadConfig({}, '/work/x')).toEqual({
      ok: true,
      config: { host: '127.0.0.1', port: DEFAULT_PORT, dataDirectory: '/work/x/.forja', databaseUrl: undefined, logLevel: 'info', flags: DEFAULT_FEATURE_FLAGS },
    });
  });

  it('takes HOST, PORT, FORJA_DATA_DIR and DATABASE_URL', () => {
    const loaded = loadConfig({ HOST: '0.0.0.0', PORT: '8080', FORJA_DATA_DIR: 'data', DATABASE_URL: 'postgres://u@h/db' }, '/w');
    expect(loaded).toMatchObject({ ok: true, config: { host: '0.0.0.0', port: 8080, dataDirectory: '/w/data', databaseUrl: 'postgres://u@h/db' } });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ PORT: '-1' }, 'PORT'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ FORJA_TOKENIZER: 'tiktoken' }, 'FORJA_TOKENIZER'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ ANAMNESE_ENABLED: 'maybe' }, 'ANAMNESE_ENABLED'],
  ])('names the variable that is wrong: %o', (env, variable) => {
    const loaded = loadConfig(env);
    expect(loaded).toMatchObject({ ok: false, error: { variable } });
    expect(loaded.ok === false && loaded.error.message).toContain(variable);
  });
});

describe('feature flags', () => {
  it('are all off unless switched on by their own name', () => {
    expect(Object.values(DEFAULT_FEATURE_FLAGS).every((value) => value === false)).toBe(true);
    const loaded = loadConfig({ GRAPH_INSTRUCTION_TEMPLATES_ENABLED: 'true', PSYCHOLOGIST_ENABLED: '0' });
    expect(loaded.ok && loaded.config.flags).toEqual({ ...DEFAULT_FEATURE_FLAGS, graph_instruction_templates_enabled: true });
  });
});
