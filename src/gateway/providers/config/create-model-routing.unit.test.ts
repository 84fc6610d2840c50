import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createModelRouting, singleModelRouting } from './create-model-routing.ts';

const directory = mkdtempSync(join(tmpdir(), 'forja-routing-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
const script = join(directory, 'line.json');
writeFileSync(script, JSON.stringify({ turns: [{ agent: 'criativo', text: 'Oi.' }] }));

describe('createModelRouting', () => {
  it('gives each kind its own model where set, FORJA_MODEL elsewhere; dev:<module> is served as dev', () => {
    const { routing, problems } = createModelRouting({
      FORJA_MODEL: `scripted:${script}`,
      FORJA_MODEL_DEV: 'openai:qwen2.5-coder:7b',
      FORJA_MODEL_DEV_BASE_URL: 'http://127.0.0.1:11434/v1',
      FORJA_MODEL_CONTEXT_MANAGER: 'anthropic:claude-haiku-4-5',
      ANTHROPIC_API_KEY: 'sk-ant-1',
    });
    expect(problems).toEqual([]);
    const named = (agent: string) => {
      const provider = routing.providerFor(agent);
      return 'notConfigured' in provider ? null : `${provider.name}:${provider.model}`;
    };
    expect(named('criativo')).toBe(`scripted:${script}`);
    expect(named('dev:billing')).toBe('openai:qwen2.5-coder:7b');
    expect(named('context-manager')).toBe('anthropic:claude-haiku-4-5');
    expect(named('revisor')).toBe(`scripted:${script}`);
    expect(routing.endpointFor('dev:billing')).toMatchObject({
      credentials: { baseUrl: 'http://127.0.0.1:11434/v1' },
    });
    expect(
      routing.assignments().map((assignment) => [assignment.agent, assignment.variable]),
    ).toEqual([
      ['criativo', 'FORJA_MODEL'],
      ['po', 'FORJA_MODEL'],
      ['arquiteto', 'FORJA_MODEL'],
      ['dev', 'FORJA_MODEL_DEV'],
      ['context-manager', 'FORJA_MODEL_CONTEXT_MANAGER'],
      ['psicologo', 'FORJA_MODEL'],
      ['anamnese', 'FORJA_MODEL'],
    ]);
  });

  it('builds one provider per endpoint: kinds naming the same script share its cursor', () => {
    const { routing } = createModelRouting({
      FORJA_MODEL: `scripted:${script}`,
      FORJA_MODEL_PSICOLOGO: `scripted:${script}`,
      FORJA_MODEL_PO: 'openai:m',
      FORJA_MODEL_PO_BASE_URL: 'http://127.0.0.1:9/v1',
      FORJA_MODEL_ARQUITETO: 'openai:m',
      FORJA_MODEL_ARQUITETO_BASE_URL: 'http://127.0.0.1:9/v1',
    });
    expect(routing.providerFor('psicologo')).toBe(routing.providerFor('criativo'));
    expect(routing.providerFor('po')).toBe(routing.providerFor('arquiteto'));
  });

  it('keeps every other agent working when one setting is wrong, and names it', () => {
    const { routing, problems } = createModelRouting({
      FORJA_MODEL: `scripted:${script}`,
      FORJA_MODEL_DEV: 'openai:gpt-4.1',
    });
    expect(problems.map((problem) => problem.variable)).toEqual(['FORJA_MODEL_DEV_API_KEY']);
    expect(routing.providerFor('dev:x')).toEqual({
      notConfigured: expect.stringContaining(
        'FORJA_MODEL_DEV=openai:gpt-4.1 needs FORJA_MODEL_DEV_API_KEY',
      ),
    });
    expect(routing.endpointFor('dev:x')).toBeNull();
    expect('notConfigured' in routing.providerFor('criativo')).toBe(false);
    expect(routing.assignments()[3]).toMatchObject({ agent: 'dev', configured: false });
  });

  it('runs the agents that have a model of their own when FORJA_MODEL is unset, without calling that a problem', () => {
    const { routing, problems } = createModelRouting({
      FORJA_MODEL_CRIATIVO: `scripted:${script}`,
    });
    expect(problems).toEqual([]);
    expect('notConfigured' in routing.providerFor('criativo')).toBe(false);
    expect(routing.providerFor('po')).toEqual({
      notConfigured: expect.stringContaining('No model configured'),
    });
  });

  it('reports a script that cannot be read under the variable that named it', () => {
    const { problems } = createModelRouting({ FORJA_MODEL_ANAMNESE: 'scripted:/nowhere/x.json' });
    expect(problems.map((problem) => problem.variable)).toEqual(['FORJA_MODEL_ANAMNESE']);
  });
});

describe('singleModelRouting', () => {
  it('gives every agent the one provider', () => {
    const routing = singleModelRouting({ notConfigured: 'set FORJA_MODEL' });
    expect(routing.providerFor('dev:a')).toEqual({ notConfigured: 'set FORJA_MODEL' });
    expect(routing.assignments().every((assignment) => !assignment.configured)).toBe(true);
  });
});
