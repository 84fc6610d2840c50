import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseToolCallArguments } from './parse-tool-call-arguments.ts';

describe('parseToolCallArguments', () => {
  it('reads a JSON object', () => {
    expect(parseToolCallArguments('{"type":"business_rule"}')).toEqual({
      arguments: { type: 'business_rule' },
    });
  });

  it('reads empty text as no arguments', () => {
    expect(parseToolCallArguments('  ')).toEqual({ arguments: {} });
  });

  it('reports broken JSON and non-objects as a parse error the model can be told', () => {
    expect(parseToolCallArguments('{"type":')).toMatchObject({
      arguments: undefined,
      parseError: expect.stringMatching(/^tool arguments are not valid JSON/),
    });
    expect(parseToolCallArguments('[1,2]')).toEqual({
      arguments: undefined,
      parseError: 'tool arguments must be a JSON object',
    });
    expect(parseToolCallArguments('null')).toEqual({
      arguments: undefined,
      parseError: 'tool arguments must be a JSON object',
    });
  });

  it('never throws, whatever the model wrote', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const parsed = parseToolCallArguments(text);
        expect(parsed.arguments === undefined).toBe(parsed.parseError !== undefined);
      }),
    );
  });

  it('gives back any object it was given as JSON', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (value) => {
        expect(parseToolCallArguments(JSON.stringify(value)).arguments).toEqual(
          JSON.parse(JSON.stringify(value)),
        );
      }),
    );
  });
});
