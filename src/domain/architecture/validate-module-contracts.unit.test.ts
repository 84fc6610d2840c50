import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONTRACT_ITEM_TYPES } from './module-contracts-schema.ts';
import { MAX_PROBLEMS_IN_REASON } from './refusal.ts';
import { mapOf } from './test-support/module-maps.ts';
import { validateModuleContractsDeclaration } from './validate-module-contracts.ts';

const map = mapOf({ 'board-engine': ['piece-catalog'], 'piece-catalog': [], scoring: [] }, 4);
const item = { tipo: 'funcao', assinatura: 'move(board, piece, dir) -> Board' };
const declaration = (contratos: unknown, version: unknown = 1) => ({ version, contratos });
const items = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ tipo: 'funcao', assinatura: `f${index}()` }));

describe('validateModuleContractsDeclaration refuses, with the full reason', () => {
  it.each([
    {
      rule: 'no module map',
      args: declaration([{ modulo: 'scoring', expoe: [item] }]),
      currentMap: null,
      code: 'no_module_map',
      path: '(arguments)',
      message:
        'this project has no module map yet; declare it with declare_module_map first — contracts are declared per module of the current map',
    },
    {
      rule: 'a module not in the current map, listing the valid ones',
      args: declaration([{ modulo: 'ghost', expoe: [item] }]),
      code: 'module_not_in_map',
      path: 'contratos[0].modulo',
      message:
        'module "ghost" is not in the current module map (version 4); valid modules: board-engine, piece-catalog, scoring',
    },
    {
      rule: 'a repeated module',
      args: declaration([
        { modulo: 'scoring', expoe: [item] },
        { modulo: 'scoring', expoe: [item] },
      ]),
      code: 'repeated_module',
      path: 'contratos[1].modulo',
      message:
        'module "scoring" appears more than once (first at contratos[0]); list each module once with its whole expoe',
    },
    {
      rule: 'an empty expoe',
      args: declaration([{ modulo: 'scoring', expoe: [] }]),
      code: 'empty_expoe',
      path: 'contratos[0].expoe',
      message: "expoe is empty; a module's contract lists 1 to 40 items",
    },
    {
      rule: 'more than 40 items',
      args: declaration([{ modulo: 'scoring', expoe: items(41) }]),
      code: 'too_many_items',
      path: 'contratos[0].expoe',
      message:
        "expoe has 41 items; the limit is 40 per module (the contract goes into every dev's context)",
    },
    {
      rule: 'an unknown tipo',
      args: declaration([{ modulo: 'scoring', expoe: [{ tipo: 'metodo', assinatura: 'x()' }] }]),
      code: 'unknown_tipo',
      path: 'contratos[0].expoe[0].tipo',
      message: 'unknown tipo "metodo"; valid: funcao, rota, evento, dado',
    },
    {
      rule: 'an empty assinatura',
      args: declaration([{ modulo: 'scoring', expoe: [{ tipo: 'rota', assinatura: '' }] }]),
      code: 'empty_assinatura',
      path: 'contratos[0].expoe[0].assinatura',
      message: 'assinatura must not be empty',
    },
    {
      rule: 'a blank assinatura',
      args: declaration([{ modulo: 'scoring', expoe: [{ tipo: 'rota', assinatura: ' \n ' }] }]),
      code: 'empty_assinatura',
      path: 'contratos[0].expoe[0].assinatura',
      message: 'assinatura must not be empty',
    },
    {
      rule: 'an assinatura longer than 300 characters',
      args: declaration([
        { modulo: 'scoring', expoe: [{ tipo: 'dado', assinatura: 'x'.repeat(301) }] },
      ]),
      code: 'assinatura_too_long',
      path: 'contratos[0].expoe[0].assinatura',
      message: 'assinatura has 301 characters; the limit is 300',
    },
    {
      rule: 'an empty contratos list (it would erase every contract)',
      args: declaration([]),
      code: 'empty_contratos',
      path: 'contratos',
      message: 'contratos is empty; declare the contract of at least one module of the map',
    },
    {
      rule: 'a descricao longer than 500 characters',
      args: declaration([{ modulo: 'scoring', expoe: [{ ...item, descricao: 'd'.repeat(501) }] }]),
      code: 'descricao_too_long',
      path: 'contratos[0].expoe[0].descricao',
      message: 'descricao has 501 characters; the limit is 500',
    },
    {
      rule: 'arguments that are not an object',
      args: 'scoring',
      code: 'malformed_arguments',
      path: '(arguments)',
      message: 'arguments must be a JSON object, received string',
    },
    {
      rule: 'arguments that are an array',
      args: [],
      code: 'malformed_arguments',
      path: '(arguments)',
      message: 'arguments must be a JSON object, received array',
    },
    {
      rule: 'a missing version',
      args: { contratos: [{ modulo: 'scoring', expoe: [item] }] },
      code: 'missing_field',
      path: 'version',
      message: 'required field is missing (expected number)',
    },
    {
      rule: 'a version that is not a whole number ≥ 1',
      args: declaration([{ modulo: 'scoring', expoe: [item] }], 0),
      code: 'invalid_value',
      path: 'version',
      message: 'version must be a whole number ≥ 1, received 0',
    },
    {
      rule: 'a version of the wrong type',
      args: declaration([{ modulo: 'scoring', expoe: [item] }], '2'),
      code: 'wrong_type',
      path: 'version',
      message: 'expected number, received string',
    },
    {
      rule: 'a missing contratos',
      args: { version: 1 },
      code: 'missing_field',
      path: 'contratos',
      message: 'required field is missing (expected array)',
    },
    {
      rule: 'a contract that is not an object',
      args: declaration([42]),
      code: 'wrong_type',
      path: 'contratos[0]',
      message: 'expected object, received number',
    },
    {
      rule: 'a missing modulo',
      args: declaration([{ expoe: [item] }]),
      code: 'missing_field',
      path: 'contratos[0].modulo',
      message: 'required field is missing (expected string)',
    },
    {
      rule: 'a missing expoe',
      args: declaration([{ modulo: 'scoring' }]),
      code: 'missing_field',
      path: 'contratos[0].expoe',
      message: 'required field is missing (expected array)',
    },
    {
      rule: 'a missing assinatura',
      args: declaration([{ modulo: 'scoring', expoe: [{ tipo: 'evento' }] }]),
      code: 'missing_field',
      path: 'contratos[0].expoe[0].assinatura',
      message: 'required field is missing (expected string)',
    },
    {
      rule: 'an unknown field (e.g. a consumption list, which is derived, never written)',
      args: declaration([{ modulo: 'scoring', expoe: [item], consome: ['board-engine'] }]),
      code: 'unknown_field',
      path: 'contratos[0]',
      message: 'unknown field "consome"; accepted fields: modulo, expoe',
    },
  ])('refuses $rule', ({ args, currentMap, code, path, message }) => {
    const result = validateModuleContractsDeclaration(
      args,
      currentMap === undefined ? map : currentMap,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual([{ code, path, message }]);
    expect(result.reason).toBe(
      [
        'declare_module_contracts refused (1 problem); nothing was recorded.',
        `1. ${path}: ${message}`,
        'Fix every problem above and call declare_module_contracts again with the whole declaration.',
      ].join('\n'),
    );
  });
});

describe('validateModuleContractsDeclaration', () => {
  it('accepts a valid declaration, trimming text and keeping descricao optional', () => {
    const result = validateModuleContractsDeclaration(
      declaration(
        [
          {
            modulo: ' piece-catalog ',
            expoe: [{ tipo: 'dado', assinatura: '  Piece {id, shape}  ', descricao: 'a piece' }],
          },
          { modulo: 'board-engine', expoe: items(40) },
        ],
        2,
      ),
      map,
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.declaration.version).toBe(2);
    expect(result.declaration.contratos[0]).toEqual({
      modulo: 'piece-catalog',
      expoe: [{ tipo: 'dado', assinatura: 'Piece {id, shape}', descricao: 'a piece' }],
    });
    expect(result.declaration.contratos[1]?.expoe).toHaveLength(40);
  });

  it('counts characters, not UTF-16 units: 300 emoji are within the limit', () => {
    const result = validateModuleContractsDeclaration(
      declaration([{ modulo: 'scoring', expoe: [{ tipo: 'dado', assinatura: '🎲'.repeat(300) }] }]),
      map,
    );
    expect(result.ok).toBe(true);
  });

  it('reports every problem in one refusal, in document order', () => {
    const result = validateModuleContractsDeclaration(
      {
        extra: true,
        version: 1,
        contratos: [
          {
            modulo: 'ghost',
            expoe: [
              { tipo: 'metodo', assinatura: '' },
              { tipo: 'funcao', assinatura: 'y'.repeat(301) },
            ],
          },
          {
            modulo: 'scoring',
            expoe: items(41).map((entry, index) => (index === 3 ? { ...entry, tipo: 'x' } : entry)),
          },
          { modulo: 'scoring', expoe: [] },
        ],
      },
      map,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((problem) => `${problem.code}@${problem.path}`)).toEqual([
      'unknown_field@(arguments)',
      'module_not_in_map@contratos[0].modulo',
      'unknown_tipo@contratos[0].expoe[0].tipo',
      'empty_assinatura@contratos[0].expoe[0].assinatura',
      'assinatura_too_long@contratos[0].expoe[1].assinatura',
      'too_many_items@contratos[1].expoe',
      'unknown_tipo@contratos[1].expoe[3].tipo',
      'repeated_module@contratos[2].modulo',
      'empty_expoe@contratos[2].expoe',
    ]);
    expect(result.reason.split('\n')).toHaveLength(1 + 9 + 1);
  });

  it(`lists at most ${MAX_PROBLEMS_IN_REASON} problems in the reason and counts the rest`, () => {
    const broken = Array.from({ length: 40 }, () => ({ tipo: 'x', assinatura: '' }));
    const result = validateModuleContractsDeclaration(
      declaration([{ modulo: 'scoring', expoe: broken }]),
      map,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toHaveLength(80);
    expect(result.reason).toContain(`${MAX_PROBLEMS_IN_REASON}. contratos[0].expoe[24].assinatura`);
    expect(result.reason).toContain('… and 30 more problems not listed.');
  });

  const validItem = fc.record(
    {
      tipo: fc.constantFrom(...CONTRACT_ITEM_TYPES),
      assinatura: fc.string({ minLength: 1, maxLength: 300 }).filter((text) => text.trim() !== ''),
      descricao: fc.string({ maxLength: 500 }),
    },
    { requiredKeys: ['tipo', 'assinatura'] },
  );
  const validDeclaration = fc.record({
    version: fc.integer({ min: 1, max: 1_000 }),
    contratos: fc
      .shuffledSubarray(
        map.modules.map((module) => module.name),
        { minLength: 1 },
      )
      .chain((modules) =>
        fc.tuple(
          ...modules.map((modulo) =>
            fc
              .array(validItem, { minLength: 1, maxLength: 40 })
              .map((expoe) => ({ modulo, expoe })),
          ),
        ),
      ),
  });

  it('accepts any declaration within the rules', () => {
    fc.assert(
      fc.property(validDeclaration, (args) => validateModuleContractsDeclaration(args, map).ok),
    );
  });

  it('refuses, naming the item, any declaration with one item broken by a rule', () => {
    const breakers = [
      {
        code: 'unknown_tipo',
        field: 'tipo',
        breakItem: (entry: object) => ({ ...entry, tipo: 'metodo' }),
      },
      {
        code: 'empty_assinatura',
        field: 'assinatura',
        breakItem: (entry: object) => ({ ...entry, assinatura: '   ' }),
      },
      {
        code: 'assinatura_too_long',
        field: 'assinatura',
        breakItem: (entry: object) => ({ ...entry, assinatura: 'a'.repeat(301) }),
      },
    ] as const;
    fc.assert(
      fc.property(
        validDeclaration,
        fc.constantFrom(...breakers),
        fc.nat(),
        fc.nat(),
        (args, breaker, contractSeed, itemSeed) => {
          const contractIndex = contractSeed % args.contratos.length;
          const contract = args.contratos[contractIndex];
          if (contract === undefined) return false;
          const itemIndex = itemSeed % contract.expoe.length;
          const broken = {
            ...args,
            contratos: args.contratos.map((entry, index) =>
              index === contractIndex
                ? {
                    ...entry,
                    expoe: entry.expoe.map((one, position) =>
                      position === itemIndex ? breaker.breakItem(one) : one,
                    ),
                  }
                : entry,
            ),
          };
          const result = validateModuleContractsDeclaration(broken, map);
          expect(result.ok).toBe(false);
          if (result.ok) return false;
          expect(result.problems).toEqual([
            expect.objectContaining({
              code: breaker.code,
              path: `contratos[${contractIndex}].expoe[${itemIndex}].${breaker.field}`,
            }),
          ]);
          return true;
        },
      ),
    );
  });
});
