import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../model-provider.ts';
import { planStrictTools, readStrictToolsMode, strictDialectFor } from './plan-strict-tools.ts';

const tool = (name: string, optional: number): ToolDefinition => ({
  name,
  description: name,
  parameters: {
    type: 'object',
    properties: Object.fromEntries(
      Array.from({ length: optional + 1 }, (_, index) => [`p${index}`, { type: 'string' }]),
    ),
    required: ['p0'],
  },
});

describe('strictDialectFor', () => {
  it("is on by default only where the provider's own API offers it", () => {
    expect(strictDialectFor({ kind: 'openai', model: 'gpt-4.1' }, 'auto')).toBe('openai');
    expect(
      strictDialectFor(
        { kind: 'openai', model: 'gpt-4.1', baseUrl: 'https://api.openai.com/v1' },
        'auto',
      ),
    ).toBe('openai');
    expect(
      strictDialectFor(
        { kind: 'openai', model: 'qwen', baseUrl: 'http://127.0.0.1:11434/v1' },
        'auto',
      ),
    ).toBeNull();
    expect(strictDialectFor({ kind: 'anthropic', model: 'claude-sonnet-4-5' }, 'auto')).toBe(
      'anthropic',
    );
    expect(strictDialectFor({ kind: 'anthropic', model: 'claude-opus-4-1-20250805' }, 'auto')).toBe(
      'anthropic',
    );
    expect(
      strictDialectFor({ kind: 'anthropic', model: 'claude-3-5-sonnet-latest' }, 'auto'),
    ).toBeNull();
    expect(
      strictDialectFor(
        { kind: 'openai', model: 'qwen', baseUrl: 'http://127.0.0.1:8000/v1' },
        'on',
      ),
    ).toBe('openai');
    expect(strictDialectFor({ kind: 'openai', model: 'gpt-4.1' }, 'off')).toBeNull();
  });

  it('reads FORJA_STRICT_TOOLS, naming it when the value is wrong', () => {
    expect(readStrictToolsMode({})).toEqual({ ok: true, mode: 'auto' });
    expect(readStrictToolsMode({ FORJA_STRICT_TOOLS: 'off' })).toEqual({ ok: true, mode: 'off' });
    expect(readStrictToolsMode({ FORJA_STRICT_TOOLS: 'yes' })).toEqual({
      ok: false,
      variable: 'FORJA_STRICT_TOOLS',
      message: 'FORJA_STRICT_TOOLS must be auto, on or off, not "yes".',
    });
  });
});

describe('planStrictTools', () => {
  it("declares every qualifying tool for OpenAI, and none for Anthropic past its request's limits", () => {
    const map = {
      name: 'labels',
      description: '',
      parameters: { type: 'object', additionalProperties: { type: 'string' } },
    };
    expect([...planStrictTools([tool('a', 1), map], 'openai').schemas.keys()]).toEqual(['a']);
    expect(planStrictTools([tool('a', 12), tool('b', 12)], 'anthropic').schemas.size).toBe(2);
    expect(planStrictTools([tool('a', 12), tool('b', 13)], 'anthropic').schemas.size).toBe(0);
    const many = Array.from({ length: 21 }, (_, index) => tool(`t${index}`, 0));
    expect(planStrictTools(many, 'anthropic').schemas.size).toBe(0);
    expect(planStrictTools(many, 'openai').schemas.size).toBe(21);
  });
});
