import { describe, expect, it } from 'vitest';
import { formatProblemPath } from './declaration-problems.ts';
import { refuseDeclaration } from './refusal.ts';

describe('formatProblemPath', () => {
  it.each([
    { path: [], text: '(arguments)' },
    { path: ['version'], text: 'version' },
    { path: ['contratos', 2, 'expoe', 0, 'tipo'], text: 'contratos[2].expoe[0].tipo' },
  ])('writes $text', ({ path, text }) => {
    expect(formatProblemPath(path)).toBe(text);
  });
});

describe('refuseDeclaration', () => {
  it('orders problems as the document reads: parent first, indexes numerically, fields as documented', () => {
    const refusal = refuseDeclaration(
      'declare_x',
      [
        { code: 'unknown_tipo', path: ['list', 10, 'tipo'], message: 'c' },
        { code: 'empty_assinatura', path: ['list', 2, 'assinatura'], message: 'b' },
        { code: 'unknown_tipo', path: ['list', 2, 'tipo'], message: 'a' },
        { code: 'too_many_items', path: ['list'], message: 'parent' },
        { code: 'missing_field', path: ['version'], message: 'v' },
        { code: 'unknown_field', path: [], message: 'root' },
      ],
      ['version', 'list', 'tipo', 'assinatura'],
    );
    expect(refusal.problems.map((problem) => problem.message)).toEqual([
      'root',
      'v',
      'parent',
      'a',
      'b',
      'c',
    ]);
    expect(refusal.reason).toBe(
      [
        'declare_x refused (6 problems); nothing was recorded.',
        '1. (arguments): root',
        '2. version: v',
        '3. list: parent',
        '4. list[2].tipo: a',
        '5. list[2].assinatura: b',
        '6. list[10].tipo: c',
        'Fix every problem above and call declare_x again with the whole declaration.',
      ].join('\n'),
    );
  });
});
