import { describe, expect, it } from 'vitest';
import { ScriptInvalidError } from '../errors/script-invalid-error.ts';
import { formatJsonPath, parseScriptText, validateScript } from './parse-script.ts';

function issuesOf(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(ScriptInvalidError);
    return (error as ScriptInvalidError).issues;
  }
  throw new Error('expected a ScriptInvalidError');
}

describe('parseScriptText', () => {
  it('fills the defaults of a minimal turn', () => {
    expect(parseScriptText('{"turns":[{"agent":"po"}]}', 'demo.json')).toEqual({
      turns: [{ agent: 'po', text: '', tool_calls: [] }],
    });
  });

  it('names the JSON path and the rule of every problem', () => {
    const script = {
      turns: [
        { agent: 'criativo', text: 'ok' },
        { agent: '', tool_calls: [{ name: '', arguments: {} }], usage: { input_tokens: -1, output_tokens: 1.5 } },
      ],
    };
    expect(issuesOf(() => validateScript(script, 'demo.json'))).toEqual([
      { path: 'turns[1].agent', message: 'must be a non-empty agent slug' },
      { path: 'turns[1].tool_calls[0].name', message: 'must be a non-empty tool name' },
      { path: 'turns[1].usage.input_tokens', message: 'must not be negative' },
      { path: 'turns[1].usage.output_tokens', message: 'must be a whole number' },
    ]);
  });

  it('refuses a misspelt key instead of ignoring it', () => {
    const issues = issuesOf(() => validateScript({ turns: [{ agent: 'po', tool_call: [] }] }, 'x'));
    expect(issues).toEqual([{ path: 'turns[0]', message: expect.stringContaining('tool_call') }]);
  });

  it('refuses text that is not JSON, and says the file is the problem', () => {
    expect(() => parseScriptText('{"turns": [', 'demo.json')).toThrow(/invalid scripted model \(demo\.json\): \(file\): is not valid JSON/);
  });

  it('refuses a script without turns', () => {
    expect(issuesOf(() => validateScript({}, 'x'))).toEqual([{ path: 'turns', message: expect.any(String) }]);
  });
});

describe('formatJsonPath', () => {
  it('writes indexes in brackets and keys with dots', () => {
    expect(formatJsonPath(['turns', 2, 'tool_calls', 0, 'name'])).toBe('turns[2].tool_calls[0].name');
    expect(formatJsonPath([])).toBe('(root)');
  });
});
