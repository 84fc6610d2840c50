import { describe, expect, it } from 'vitest';
import { parseModelSetting } from './parse-model-setting.ts';

describe('parseModelSetting', () => {
  it('splits at the first colon only, so models and paths keep theirs', () => {
    expect(parseModelSetting('openai:llama3.1:8b')).toEqual({
      ok: true,
      kind: 'openai',
      model: 'llama3.1:8b',
    });
    expect(parseModelSetting(' scripted:C:\\scripts\\demo.json ')).toEqual({
      ok: true,
      kind: 'scripted',
      model: 'C:\\scripts\\demo.json',
    });
    expect(parseModelSetting('anthropic:claude-sonnet-4-5')).toEqual({
      ok: true,
      kind: 'anthropic',
      model: 'claude-sonnet-4-5',
    });
  });

  it('tells unset, malformed and unknown apart', () => {
    expect(parseModelSetting(undefined)).toEqual({ ok: false, problem: 'model-unset' });
    expect(parseModelSetting('  ')).toEqual({ ok: false, problem: 'model-unset' });
    expect(parseModelSetting('gpt-4o')).toEqual({ ok: false, problem: 'model-malformed' });
    expect(parseModelSetting('openai:')).toEqual({ ok: false, problem: 'model-malformed' });
    expect(parseModelSetting(':gpt-4o')).toEqual({ ok: false, problem: 'model-malformed' });
    expect(parseModelSetting('gemini:pro')).toEqual({
      ok: false,
      problem: 'unknown-provider',
      provider: 'gemini',
    });
  });
});
