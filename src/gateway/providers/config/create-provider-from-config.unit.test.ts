import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ModelNotConfiguredError } from '../errors/model-not-configured-error.ts';
import { ScriptInvalidError } from '../errors/script-invalid-error.ts';
import { collectStream, joinText } from '../testing/collect-stream.ts';
import {
  createProviderFromConfig,
  type ProviderConfigResult,
} from './create-provider-from-config.ts';

const directory = mkdtempSync(join(tmpdir(), 'forja-config-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function errorOf(result: ProviderConfigResult): ModelNotConfiguredError | ScriptInvalidError {
  if (result.ok) throw new Error('expected a configuration error');
  return result.error;
}

describe('createProviderFromConfig', () => {
  it('explains every way to configure a model when FORJA_MODEL is unset', () => {
    const error = errorOf(createProviderFromConfig({}));
    expect(error).toBeInstanceOf(ModelNotConfiguredError);
    expect(error.message).toBe(
      'No model configured: set FORJA_MODEL=openai:<model> (with OPENAI_API_KEY, OPENAI_BASE_URL for ' +
        'Ollama/vLLM/LM Studio/OpenRouter) or anthropic:<model> (with ANTHROPIC_API_KEY) or scripted:<path>',
    );
    expect(error).toMatchObject({ problem: 'model-unset', variables: ['FORJA_MODEL'] });
  });

  it('refuses a malformed setting and an unknown provider, naming FORJA_MODEL', () => {
    expect(errorOf(createProviderFromConfig({ FORJA_MODEL: 'gpt-4o' }))).toMatchObject({
      problem: 'model-malformed',
      message: expect.stringContaining('FORJA_MODEL="gpt-4o" is not provider:model'),
    });
    expect(errorOf(createProviderFromConfig({ FORJA_MODEL: 'gemini:pro' }))).toMatchObject({
      problem: 'unknown-provider',
      message: expect.stringContaining('unknown provider "gemini"'),
    });
  });

  it('asks for OPENAI_API_KEY, or OPENAI_BASE_URL for a keyless server', () => {
    const error = errorOf(createProviderFromConfig({ FORJA_MODEL: 'openai:gpt-4o-mini' }));
    expect(error).toMatchObject({
      problem: 'api-key-missing',
      variables: ['OPENAI_API_KEY', 'OPENAI_BASE_URL'],
    });
    expect(error.message).toMatch(
      /^FORJA_MODEL=openai:gpt-4o-mini needs OPENAI_API_KEY; or set OPENAI_BASE_URL/,
    );
  });

  it('asks for ANTHROPIC_API_KEY', () => {
    const error = errorOf(createProviderFromConfig({ FORJA_MODEL: 'anthropic:claude-sonnet-4-5' }));
    expect(error).toMatchObject({ variables: ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL'] });
  });

  it('builds the OpenAI adapter with a key, or with only a base URL (Ollama)', () => {
    const withKey = createProviderFromConfig({
      FORJA_MODEL: 'openai:gpt-4o-mini',
      OPENAI_API_KEY: 'sk-1234567890',
    });
    const keyless = createProviderFromConfig({
      FORJA_MODEL: 'openai:llama3.1:8b',
      OPENAI_BASE_URL: 'http://localhost:11434/v1',
    });
    expect(withKey.ok && [withKey.provider.name, withKey.provider.model]).toEqual([
      'openai',
      'gpt-4o-mini',
    ]);
    expect(keyless.ok && [keyless.provider.name, keyless.provider.model]).toEqual([
      'openai',
      'llama3.1:8b',
    ]);
  });

  it('builds the Anthropic adapter', () => {
    const result = createProviderFromConfig({
      FORJA_MODEL: 'anthropic:claude-sonnet-4-5',
      ANTHROPIC_API_KEY: 'sk-ant-1234567890',
    });
    expect(result.ok && [result.provider.name, result.provider.model]).toEqual([
      'anthropic',
      'claude-sonnet-4-5',
    ]);
  });

  it('refuses a base URL that is not http(s) without repeating it, since it may hold credentials', () => {
    const error = errorOf(
      createProviderFromConfig({
        FORJA_MODEL: 'openai:m',
        OPENAI_API_KEY: 'sk-secret-key-1',
        OPENAI_BASE_URL: 'ftp://user:hunter2@host',
      }),
    );
    expect(error).toMatchObject({ problem: 'base-url-invalid', variables: ['OPENAI_BASE_URL'] });
    expect(error.message).not.toContain('hunter2');
    expect(error.message).not.toContain('sk-secret-key-1');
  });

  it('never puts a secret in any configuration error', () => {
    const secrets = {
      OPENAI_API_KEY: 'sk-never-shown-1',
      ANTHROPIC_API_KEY: 'sk-ant-never-shown-2',
    };
    const settings = ['', 'bad', 'nope:x', 'openai:', 'anthropic:m'];
    for (const FORJA_MODEL of settings) {
      const result = createProviderFromConfig({
        ...secrets,
        FORJA_MODEL,
        ANTHROPIC_BASE_URL: 'not a url',
      });
      const text = result.ok ? '' : `${result.error.message} ${JSON.stringify(result.error)}`;
      expect(text).not.toContain('never-shown');
    }
  });

  it('loads a scripted model from its path, or reports the bad script', () => {
    const good = join(directory, 'good.json');
    writeFileSync(good, JSON.stringify({ turns: [{ agent: 'criativo', text: 'hi' }] }));
    const result = createProviderFromConfig({ FORJA_MODEL: `scripted:${good}` });
    expect(result.ok && [result.provider.name, result.provider.model]).toEqual(['scripted', good]);

    const bad = join(directory, 'bad.json');
    writeFileSync(bad, '{"turns": [{"agent": 1}]}');
    const error = errorOf(createProviderFromConfig({ FORJA_MODEL: `scripted:${bad}` }));
    expect(error).toBeInstanceOf(ScriptInvalidError);
    expect(error.message).toContain('turns[0].agent');
  });

  it('retries a scripted provider error as it retries a real one', async () => {
    const path = join(directory, 'flaky.json');
    const turns = [
      { agent: 'criativo', fail: { status: 503, message: 'overloaded', retry_after: 0 } },
      { agent: 'criativo', text: 'Back.' },
    ];
    writeFileSync(path, JSON.stringify({ turns }));
    const result = createProviderFromConfig({ FORJA_MODEL: `scripted:${path}` });
    if (!result.ok) throw result.error;
    const request = {
      agent: 'criativo',
      system: '',
      messages: [{ role: 'user' as const, content: 'hi' }],
      tools: [],
      maxOutputTokens: 10,
    };
    const { parts, error } = await collectStream(
      result.provider.stream(request, { signal: new AbortController().signal }),
    );
    expect([error, joinText(parts)]).toEqual([undefined, 'Back.']);
  });
});
