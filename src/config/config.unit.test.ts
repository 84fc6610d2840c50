import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_PARALLEL_TURNS, DEFAULT_PORT, loadConfig } from './config.ts';
import { DEFAULT_FEATURE_FLAGS } from './feature-flags.ts';

describe('loadConfig', () => {
  it('defaults to embedded storage under ./.forja on 127.0.0.1:4321', () => {
    expect(loadConfig({}, '/work/x')).toEqual({
      ok: true,
      config: {
        host: '127.0.0.1',
        port: DEFAULT_PORT,
        dataDirectory: '/work/x/.forja',
        databaseUrl: undefined,
        logLevel: 'info',
        flags: DEFAULT_FEATURE_FLAGS,
        publicUrls: [],
        maxParallelTurns: DEFAULT_MAX_PARALLEL_TURNS,
        databasePoolSize: 10,
        pgliteTemplate: true,
      },
    });
  });

  it('takes FORJA_PGLITE_TEMPLATE as on or off, in any case, on by default; any other word names the variable', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('on', 'ON', ' true ', '1', 'yes', 'off', 'Off', 'false', '0', 'no'),
        (word) => {
          const on = ['on', 'true', '1', 'yes'].includes(word.trim().toLowerCase());
          expect(loadConfig({ FORJA_PGLITE_TEMPLATE: word })).toMatchObject({
            ok: true,
            config: { pgliteTemplate: on },
          });
        },
      ),
    );
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (word) => {
        fc.pre(
          !['on', 'true', '1', 'yes', 'off', 'false', '0', 'no', ''].includes(
            word.trim().toLowerCase(),
          ),
        );
        expect(loadConfig({ FORJA_PGLITE_TEMPLATE: word })).toMatchObject({
          ok: false,
          error: {
            variable: 'FORJA_PGLITE_TEMPLATE',
            message: expect.stringContaining('on or off'),
          },
        });
      }),
    );
  });

  it('takes FORJA_MAX_PARALLEL_TURNS, 4 by default', () => {
    expect(DEFAULT_MAX_PARALLEL_TURNS).toBe(4);
    expect(loadConfig({ FORJA_MAX_PARALLEL_TURNS: '1' })).toMatchObject({
      ok: true,
      config: { maxParallelTurns: 1 },
    });
  });

  it('takes DATABASE_POOL_SIZE, 10 by default', () => {
    expect(loadConfig({ DATABASE_POOL_SIZE: '40' })).toMatchObject({
      ok: true,
      config: { databasePoolSize: 40 },
    });
  });

  it('takes HOST, PORT, FORJA_DATA_DIR and DATABASE_URL', () => {
    const loaded = loadConfig(
      { HOST: '0.0.0.0', PORT: '8080', FORJA_DATA_DIR: 'data', DATABASE_URL: 'postgres://u@h/db' },
      '/w',
    );
    expect(loaded).toMatchObject({
      ok: true,
      config: {
        host: '0.0.0.0',
        port: 8080,
        dataDirectory: '/w/data',
        databaseUrl: 'postgres://u@h/db',
      },
    });
  });

  it('takes FORJA_PUBLIC_URL as comma-separated addresses', () => {
    const loaded = loadConfig({
      FORJA_PUBLIC_URL: 'https://forja.example.com, http://10.0.0.5:4321/',
    });
    expect(loaded.ok && loaded.config.publicUrls.map((url) => url.origin)).toEqual([
      'https://forja.example.com',
      'http://10.0.0.5:4321',
    ]);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ PORT: '-1' }, 'PORT'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ ANAMNESE_ENABLED: 'maybe' }, 'ANAMNESE_ENABLED'],
    [{ FORJA_PUBLIC_URL: 'forja.example.com' }, 'FORJA_PUBLIC_URL'],
    [{ FORJA_PUBLIC_URL: 'https://forja.example.com/app' }, 'FORJA_PUBLIC_URL'],
    [{ FORJA_PUBLIC_URL: 'ftp://forja.example.com' }, 'FORJA_PUBLIC_URL'],
    [{ FORJA_MAX_PARALLEL_TURNS: '0' }, 'FORJA_MAX_PARALLEL_TURNS'],
    [{ FORJA_MAX_PARALLEL_TURNS: 'two' }, 'FORJA_MAX_PARALLEL_TURNS'],
    [{ FORJA_MAX_PARALLEL_TURNS: '1.5' }, 'FORJA_MAX_PARALLEL_TURNS'],
    [{ DATABASE_POOL_SIZE: '1' }, 'DATABASE_POOL_SIZE'],
    [{ DATABASE_POOL_SIZE: '3' }, 'DATABASE_POOL_SIZE'],
    [{ DATABASE_POOL_SIZE: 'many' }, 'DATABASE_POOL_SIZE'],
  ])('names the variable that is wrong: %o', (env, variable) => {
    const loaded = loadConfig(env);
    expect(loaded).toMatchObject({ ok: false, error: { variable } });
    expect(loaded.ok === false && loaded.error.message).toContain(variable);
  });
});

describe('feature flags', () => {
  it('are all off unless switched on by their own name', () => {
    expect(Object.values(DEFAULT_FEATURE_FLAGS).every((value) => value === false)).toBe(true);
    const loaded = loadConfig({
      GRAPH_INSTRUCTION_TEMPLATES_ENABLED: 'true',
      PSYCHOLOGIST_ENABLED: '0',
    });
    expect(loaded.ok && loaded.config.flags).toEqual({
      ...DEFAULT_FEATURE_FLAGS,
      graph_instruction_templates_enabled: true,
    });
  });
});
