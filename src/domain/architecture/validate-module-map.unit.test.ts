import { describe, expect, it } from 'vitest';
import { validateModuleMapDeclaration } from './validate-module-map.ts';

const module = (name: unknown, dependsOn?: unknown) => ({
  name,
  stack: 'TypeScript',
  responsibility: `Does ${String(name)}`,
  ...(dependsOn === undefined ? {} : { dependsOn }),
});

describe('validateModuleMapDeclaration', () => {
  it('accepts a map and fills an omitted dependsOn with an empty list', () => {
    const result = validateModuleMapDeclaration({
      version: 1,
      modules: [module('piece-catalog'), module('board-engine', ['piece-catalog'])],
    });
    expect(result).toEqual({
      ok: true,
      declaration: {
        version: 1,
        modules: [
          {
            name: 'piece-catalog',
            stack: 'TypeScript',
            responsibility: 'Does piece-catalog',
            dependsOn: [],
          },
          {
            name: 'board-engine',
            stack: 'TypeScript',
            responsibility: 'Does board-engine',
            dependsOn: ['piece-catalog'],
          },
        ],
      },
    });
  });

  it.each([
    {
      rule: 'a module name that could reach a path or a git ref',
      args: { version: 1, modules: [module('../etc')] },
      code: 'invalid_module_name',
      path: 'modules[0].name',
    },
    {
      rule: 'an uppercase module name',
      args: { version: 1, modules: [module('Board Engine')] },
      code: 'invalid_module_name',
      path: 'modules[0].name',
    },
    {
      rule: 'an empty stack',
      args: { version: 1, modules: [{ ...module('a'), stack: ' ' }] },
      code: 'empty_text',
      path: 'modules[0].stack',
    },
    {
      rule: 'no modules',
      args: { version: 1, modules: [] },
      code: 'invalid_value',
      path: 'modules',
    },
    {
      rule: 'a missing responsibility',
      args: { version: 1, modules: [{ name: 'a', stack: 'Go' }] },
      code: 'missing_field',
      path: 'modules[0].responsibility',
    },
    {
      rule: 'a dependsOn that is not a list',
      args: { version: 1, modules: [module('a', 'b')] },
      code: 'wrong_type',
      path: 'modules[0].dependsOn',
    },
    {
      rule: 'an unknown dependency',
      args: { version: 1, modules: [module('a', ['b'])] },
      code: 'unknown_dependency',
      path: 'modules[0].dependsOn[0]',
    },
    {
      rule: 'a cycle',
      args: { version: 1, modules: [module('a', ['b']), module('b', ['a'])] },
      code: 'dependency_cycle',
      path: 'modules',
    },
  ])('refuses $rule', ({ args, code, path }) => {
    const result = validateModuleMapDeclaration(args);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((problem) => ({ code: problem.code, path: problem.path }))).toEqual([
      { code, path },
    ]);
    expect(result.reason).toMatch(/^declare_module_map refused \(1 problem\)/);
  });

  it('reports graph problems in the same turn as shape problems', () => {
    const result = validateModuleMapDeclaration({
      version: 1,
      modules: [{ name: 'a', stack: 'Go', dependsOn: ['b'] }, module('b', ['a'])],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((problem) => problem.code)).toEqual([
      'dependency_cycle',
      'missing_field',
    ]);
  });
});
