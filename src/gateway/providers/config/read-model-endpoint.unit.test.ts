import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AGENT_MODEL_KINDS, agentEndpointVariables } from './agent-model-kinds.ts';
import {
  findUnknownModelVariable,
  readAgentEndpoint,
  readDefaultEndpoint,
} from './read-model-endpoint.ts';

describe('readAgentEndpoint', () => {
  it('is null when the kind has no model of its own: it uses FORJA_MODEL', () => {
    expect(readAgentEndpoint({ FORJA_MODEL: 'openai:m', OPENAI_API_KEY: 'k' }, 'dev')).toEqual({
      ok: true,
      endpoint: null,
    });
  });

  it("sends a kind's own server its own key only, never the provider's global key", () => {
    const env = {
      FORJA_MODEL: 'openai:gpt-4.1',
      OPENAI_API_KEY: 'sk-global-key',
      FORJA_MODEL_CONTEXT_MANAGER: 'openai:qwen2.5:7b',
      FORJA_MODEL_CONTEXT_MANAGER_BASE_URL: 'http://127.0.0.1:11434/v1',
    };
    expect(readAgentEndpoint(env, 'context-manager')).toEqual({
      ok: true,
      endpoint: {
        kind: 'openai',
        model: 'qwen2.5:7b',
        variable: 'FORJA_MODEL_CONTEXT_MANAGER',
        credentials: { baseUrl: 'http://127.0.0.1:11434/v1' },
        keyVariable: 'FORJA_MODEL_CONTEXT_MANAGER_API_KEY',
        baseUrlVariable: 'FORJA_MODEL_CONTEXT_MANAGER_BASE_URL',
      },
    });
  });

  it("uses the provider's base URL and key when the kind names only a model, its own key first", () => {
    const env = {
      FORJA_MODEL: 'openai:m',
      OPENAI_API_KEY: 'sk-global',
      FORJA_MODEL_DEV: 'anthropic:claude-sonnet-4-5',
      ANTHROPIC_API_KEY: 'sk-ant-global',
      FORJA_MODEL_PO: 'openai:gpt-4.1',
      FORJA_MODEL_PO_API_KEY: 'sk-po-project',
    };
    expect(readAgentEndpoint(env, 'dev')).toMatchObject({
      ok: true,
      endpoint: { kind: 'anthropic', credentials: { apiKey: 'sk-ant-global' } },
    });
    expect(readAgentEndpoint(env, 'po')).toMatchObject({
      ok: true,
      endpoint: { credentials: { apiKey: 'sk-po-project' }, keyVariable: 'FORJA_MODEL_PO_API_KEY' },
    });
  });

  it('refuses a base URL or key without the model they are for, and bad values, naming the variable', () => {
    const problem = (env: Record<string, string>, kind: (typeof AGENT_MODEL_KINDS)[number]) => {
      const read = readAgentEndpoint(env, kind);
      return read.ok ? null : read.error.variables[0];
    };
    expect(problem({ FORJA_MODEL_DEV_API_KEY: 'k' }, 'dev')).toBe('FORJA_MODEL_DEV_API_KEY');
    expect(problem({ FORJA_MODEL_DEV: 'llama3' }, 'dev')).toBe('FORJA_MODEL_DEV');
    expect(problem({ FORJA_MODEL_DEV: 'gemini:pro' }, 'dev')).toBe('FORJA_MODEL_DEV');
    expect(problem({ FORJA_MODEL_PO: 'openai:m' }, 'po')).toBe('FORJA_MODEL_PO_API_KEY');
    expect(problem({ FORJA_MODEL_PO: 'openai:m', FORJA_MODEL_PO_BASE_URL: 'ftp://x' }, 'po')).toBe(
      'FORJA_MODEL_PO_BASE_URL',
    );
  });

  it('never repeats a key or a base URL in an error, whatever the values', () => {
    const kind = fc.constantFrom(...AGENT_MODEL_KINDS);
    const value = fc.oneof(
      fc.constant(''),
      fc.constantFrom('openai:m', 'anthropic:c', 'scripted:/nowhere.json', 'x', 'openai:'),
      fc.string(),
    );
    fc.assert(
      fc.property(kind, value, value, (agent, model, baseUrl) => {
        const variables = agentEndpointVariables(agent);
        const env = {
          [variables.model]: model,
          [variables.baseUrl]: `${baseUrl}SECRET-URL`,
          [variables.apiKey]: 'sk-SECRET-KEY',
          OPENAI_API_KEY: 'sk-SECRET-GLOBAL',
        };
        const read = readAgentEndpoint(env, agent);
        if (read.ok) return;
        expect(read.error.message).not.toMatch(/SECRET/);
        expect(read.error.variables.every((name) => name.startsWith('FORJA_MODEL'))).toBe(true);
      }),
    );
  });
});

describe('readDefaultEndpoint', () => {
  it('reads FORJA_MODEL with the provider variables', () => {
    expect(readDefaultEndpoint({ FORJA_MODEL: 'anthropic:c', ANTHROPIC_API_KEY: 'k' })).toEqual({
      ok: true,
      endpoint: {
        kind: 'anthropic',
        model: 'c',
        variable: 'FORJA_MODEL',
        credentials: { apiKey: 'k' },
        keyVariable: 'ANTHROPIC_API_KEY',
        baseUrlVariable: 'ANTHROPIC_BASE_URL',
      },
    });
  });
});

describe('findUnknownModelVariable', () => {
  it('lets every variable Forja reads through and names the first stranger', () => {
    const known: Record<string, string> = {
      FORJA_MODEL: 'openai:m',
      FORJA_MODEL_CONTEXT_TOKENS: '8192',
      FORJA_MODEL_CONTEXT_TOKENS_DEV_BILLING: '8192',
    };
    for (const kind of AGENT_MODEL_KINDS)
      for (const variable of Object.values(agentEndpointVariables(kind))) known[variable] = 'x';
    expect(findUnknownModelVariable(known)).toBeNull();
    const error = findUnknownModelVariable({ ...known, FORJA_MODEL_CRIATIVE: 'openai:m' });
    expect(error?.variables).toEqual(['FORJA_MODEL_CRIATIVE']);
    expect(error?.message).toContain('CRIATIVO, PO, ARQUITETO, DEV, CONTEXT_MANAGER');
  });
});
