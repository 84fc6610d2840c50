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
        {
          agent: '',
          tool_calls: [{ name: '', arguments: {} }],
          usage: { input_tokens: -1, output_tokens: 1.5 },
        },
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

  it('reads expect, delay_ms, pace_ms and fail', () => {
    const turns = [
      {
        agent: 'criativo',
        text: 'Hi',
        expect: { system: ['Criativo'], messages: ['a', 'b'], tools: ['emit_artifact'] },
        delay_ms: 300,
        pace_ms: 40,
      },
      {
        agent: 'criativo',
        fail: { status: 429, message: 'rate limited', retry_after: 1.5 },
        delay_ms: 10,
      },
    ];
    expect(validateScript({ turns }, 'x').turns).toEqual([
      { ...turns[0], tool_calls: [] },
      { ...turns[1], text: '', tool_calls: [] },
    ]);
  });

  it('names each broken rule of expect, the pacing and fail', () => {
    const script = {
      turns: [
        { agent: 'po', expect: { system: [], messages: [''], tool: ['x'] } },
        { agent: 'po', delay_ms: -1, pace_ms: 2.5 },
        { agent: 'po', fail: { status: 200, message: '', retry_after: -1 } },
        {
          agent: 'po',
          text: 'streamed',
          tool_calls: [{ name: 'x' }],
          pace_ms: 5,
          fail: { status: 500, message: 'down' },
        },
      ],
    };
    expect(issuesOf(() => validateScript(script, 'x'))).toEqual([
      { path: 'turns[0].expect.system', message: 'must list at least one entry when present' },
      {
        path: 'turns[0].expect.messages[0]',
        message: 'must be a non-empty substring of the messages',
      },
      { path: 'turns[0].expect', message: 'Unrecognized key: "tool"' },
      { path: 'turns[1].delay_ms', message: 'must not be negative' },
      { path: 'turns[1].pace_ms', message: 'must be a whole number' },
      { path: 'turns[2].fail.status', message: 'must be an HTTP error status (400–599)' },
      { path: 'turns[2].fail.message', message: 'must say what went wrong' },
      { path: 'turns[2].fail.retry_after', message: 'must not be negative' },
      {
        path: 'turns[3].text',
        message: 'must be left out of a turn that fails: a failed call streams nothing',
      },
      {
        path: 'turns[3].tool_calls',
        message: 'must be left out of a turn that fails: a failed call streams nothing',
      },
      {
        path: 'turns[3].pace_ms',
        message: 'must be left out of a turn that fails: a failed call streams nothing',
      },
    ]);
  });

  it('refuses text that is not JSON, and says the file is the problem', () => {
    expect(() => parseScriptText('{"turns": [', 'demo.json')).toThrow(
      /invalid scripted model \(demo\.json\): \(file\): is not valid JSON/,
    );
  });

  it('refuses a script without turns', () => {
    expect(issuesOf(() => validateScript({}, 'x'))).toEqual([
      { path: 'turns', message: expect.any(String) },
    ]);
  });
});

describe('formatJsonPath', () => {
  it('writes indexes in brackets and keys with dots', () => {
    expect(formatJsonPath(['turns', 2, 'tool_calls', 0, 'name'])).toBe(
      'turns[2].tool_calls[0].name',
    );
    expect(formatJsonPath([])).toBe('(root)');
  });
});
