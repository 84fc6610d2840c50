import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ListedModule } from './list-module-contracts.ts';
import { MAX_LISTED_CONTRACT_ITEMS, listModuleContractsForDev } from './list-module-contracts.ts';
import {
  acyclicMapArbitrary,
  contractsOf,
  mapOf,
  shuffledMapArbitrary,
} from './test-support/module-maps.ts';

/** board-engine consumes piece-catalog and scoring; game-session and retro-renderer consume board-engine. */
const map = mapOf(
  {
    'board-engine': ['piece-catalog', 'scoring'],
    'piece-catalog': [],
    scoring: [],
    'game-session': ['board-engine', 'scoring'],
    'retro-renderer': ['board-engine'],
    persistence: [],
  },
  2,
);

const itemLines = (text: string) => text.split('\n').filter((line) => line.startsWith('- ['));
const summary = (modules: readonly ListedModule[]) =>
  modules.map((module) =>
    module.detail === 'full'
      ? `${module.name}:${module.relation}:${module.expoe === null ? 'null' : module.expoe.length}`
      : `${module.name}:${module.relation}:name`,
  );

describe('listModuleContractsForDev — consumer/provider scoping', () => {
  const contracts = contractsOf(
    {
      'board-engine': 2,
      'piece-catalog': 3,
      scoring: 1,
      'game-session': 4,
      'retro-renderer': 1,
      persistence: 2,
    },
    5,
  );

  it.each([
    {
      module: 'board-engine',
      expected: [
        'board-engine:own:2',
        'piece-catalog:consumed:3',
        'scoring:consumed:1',
        'game-session:consumer:name',
        'retro-renderer:consumer:name',
        'persistence:other:name',
      ],
    },
    {
      module: 'scoring',
      expected: [
        'scoring:own:1',
        'board-engine:consumer:name',
        'game-session:consumer:name',
        'persistence:other:name',
        'piece-catalog:other:name',
        'retro-renderer:other:name',
      ],
    },
    {
      module: 'game-session',
      expected: [
        'game-session:own:4',
        'board-engine:consumed:2',
        'scoring:consumed:1',
        'persistence:other:name',
        'piece-catalog:other:name',
        'retro-renderer:other:name',
      ],
    },
  ])(
    'for $module: its own and consumed contracts in full, consumers and others by name',
    ({ module, expected }) => {
      const listing = listModuleContractsForDev({ module, moduleMap: map, contracts });
      expect(summary(listing.structured.modules)).toEqual(expected);
      const shownModules = new Set(
        itemLines(listing.text).map((line) => /\] (.+)\.f\d+\(\)$/.exec(line)?.[1]),
      );
      expect([...shownModules].sort()).toEqual(
        expected
          .filter((entry) => !entry.endsWith(':name'))
          .map((entry) => entry.split(':')[0])
          .sort(),
      );
    },
  );

  it('says who consumes the module and which others exist, by name', () => {
    const { text } = listModuleContractsForDev({
      module: 'board-engine',
      moduleMap: map,
      contracts,
    });
    expect(text).toContain(
      'Modules that consume board-engine (by name only): game-session, retro-renderer',
    );
    expect(text).toContain('Other modules (by name only): persistence');
    expect(text).toContain('## board-engine (your module) — 2 items');
    expect(text).toContain('## piece-catalog (you consume it) — 3 items');
    expect(text).toContain('- [funcao] piece-catalog.f0()');
  });

  it('shows every module in full when the session has no module', () => {
    const listing = listModuleContractsForDev({ module: null, moduleMap: map, contracts });
    expect(listing.structured.modules.every((module) => module.detail === 'full')).toBe(true);
    expect(itemLines(listing.text)).toHaveLength(13);
    expect(listing.text).toContain(
      'No module is set for this session: every module of the map is listed in full.',
    );
  });

  it('warns and says what to do when a consumed module has no contract', () => {
    const { text } = listModuleContractsForDev({
      module: 'board-engine',
      moduleMap: map,
      contracts: contractsOf({ 'board-engine': 1, 'piece-catalog': 1 }),
    });
    expect(text).toContain('## scoring (you consume it) — expoe: null (no contract declared)');
    expect(text).toContain('Warning: no contract is declared for: scoring (you consume it).');
    expect(text).toContain('call report_blocked naming the module and the missing interface');
  });
});

describe('listModuleContractsForDev — the 120-item ceiling', () => {
  /** app consumes a, b and c (up to 160 items in full); user consumes app. */
  const wide = mapOf({ app: ['a', 'b', 'c'], a: [], b: [], c: [], user: ['app'] });

  it.each<{ name: string; counts: Record<string, number>; shown: number; leftOut: string | null }>([
    { name: 'below the ceiling', counts: { app: 40, a: 40, b: 39 }, shown: 119, leftOut: null },
    {
      name: 'exactly at the ceiling',
      counts: { app: 40, a: 40, b: 40 },
      shown: 120,
      leftOut: null,
    },
    {
      name: 'above the ceiling: own module first, then consumed ones by name',
      counts: { app: 40, a: 40, b: 40, c: 40 },
      shown: 120,
      leftOut:
        'Left out by the ceiling of 120 items: all 40 items of c (40 items in all, declared but not listed here).',
    },
    {
      name: 'above it by one item',
      counts: { app: 40, a: 40, b: 40, c: 1 },
      shown: 120,
      leftOut:
        'Left out by the ceiling of 120 items: the 1 item of c (1 item in all, declared but not listed here).',
    },
    {
      name: 'a consumer’s contract does not count (it is listed by name)',
      counts: { app: 40, a: 40, b: 40, user: 40 },
      shown: 120,
      leftOut: null,
    },
  ])('$name', ({ counts, shown, leftOut }) => {
    const listing = listModuleContractsForDev({
      module: 'app',
      moduleMap: wide,
      contracts: contractsOf(counts),
    });
    expect(itemLines(listing.text)).toHaveLength(shown);
    expect(listing.structured.shownItems).toBe(shown);
    if (leftOut === null) expect(listing.text).not.toContain('Left out by the ceiling');
    else expect(listing.text).toContain(leftOut);
  });

  it.each([
    {
      name: 'a module cut part-way and one left out whole',
      maxItems: 50,
      line: 'Left out by the ceiling of 50 items: 30 of 40 items of piece-catalog; all 40 items of scoring (70 items in all, declared but not listed here).',
      header: '## piece-catalog (you consume it) — 40 items, 10 listed',
      shown: 50,
    },
    {
      name: 'a ceiling of zero',
      maxItems: 0,
      line: 'Left out by the ceiling of 0 items: all 40 items of board-engine; all 40 items of piece-catalog; all 40 items of scoring (120 items in all, declared but not listed here).',
      header: '## board-engine (your module) — 40 items, 0 listed',
      shown: 0,
    },
  ])('says what was left out: $name', ({ maxItems, line, header, shown }) => {
    const contracts = contractsOf({ 'board-engine': 40, 'piece-catalog': 40, scoring: 40 });
    const listing = listModuleContractsForDev({
      module: 'board-engine',
      moduleMap: map,
      contracts,
      maxItems,
    });
    expect(listing.text).toContain(line);
    expect(listing.text).toContain(header);
    expect(itemLines(listing.text)).toHaveLength(shown);
  });

  it('applies the ceiling of 120 items when every module is shown', () => {
    const contracts = contractsOf({
      'board-engine': 40,
      'game-session': 40,
      persistence: 40,
      'piece-catalog': 40,
    });
    const listing = listModuleContractsForDev({ module: null, moduleMap: map, contracts });
    expect(itemLines(listing.text)).toHaveLength(MAX_LISTED_CONTRACT_ITEMS);
    expect(listing.text).toContain(
      'Left out by the ceiling of 120 items: all 40 items of piece-catalog (40 items in all, declared but not listed here).',
    );
  });

  it('refuses a negative ceiling as a caller bug', () => {
    expect(() =>
      listModuleContractsForDev({ module: null, moduleMap: map, contracts: null, maxItems: -1 }),
    ).toThrow(/maxItems/);
  });
});

describe('listModuleContractsForDev — contracts of modules that left the map', () => {
  const departedMap = mapOf({ 'board-engine': ['piece-catalog'], 'piece-catalog': [] }, 3);

  it.each([
    {
      name: 'a departed module the dev used to consume',
      module: 'board-engine',
      outside: ['old-scoring (5 items)'],
    },
    { name: 'with no module set', module: null, outside: ['old-scoring (5 items)'] },
  ])('declares its contract as such, never attributes it: $name', ({ module, outside }) => {
    const contracts = contractsOf({ 'board-engine': 1, 'piece-catalog': 1, 'old-scoring': 5 });
    const listing = listModuleContractsForDev({ module, moduleMap: departedMap, contracts });
    expect(listing.structured.contractsOutsideMap).toEqual([
      { modulo: 'old-scoring', declaredItems: 5 },
    ]);
    expect(listing.text).toContain(
      `Contracts declared for modules that are not in the current module map — declared here, not attributed to any module, not shown: ${outside.join(', ')}.`,
    );
    expect(itemLines(listing.text).some((line) => line.includes('old-scoring'))).toBe(false);
    expect(listing.structured.modules.map((entry) => entry.name)).not.toContain('old-scoring');
  });

  it('says clearly when the dev’s own module is no longer in the map, and what to do', () => {
    const contracts = contractsOf({ 'board-engine': 1, 'piece-catalog': 1, scoring: 2 });
    const listing = listModuleContractsForDev({
      module: 'scoring',
      moduleMap: departedMap,
      contracts,
    });
    expect(listing.structured.moduleInMap).toBe(false);
    expect(summary(listing.structured.modules)).toEqual([
      'board-engine:other:name',
      'piece-catalog:other:name',
    ]);
    expect(itemLines(listing.text)).toEqual([]);
    expect(listing.text).toContain(
      'Your module "scoring" is not in the current module map (version 3): it may have been removed or renamed by the Arquiteto.',
    );
    expect(listing.text).toContain(
      'Modules in the current map (by name only): board-engine, piece-catalog',
    );
    expect(listing.text).toContain('not attributed to any module, not shown: scoring (2 items).');
    expect(listing.text).toContain(
      '{"modulo": "scoring", "falta": "the module is not in the current module map"}',
    );
  });
});

describe('listModuleContractsForDev — no contracts', () => {
  it.each([
    { name: 'a scoped dev', module: 'board-engine' },
    { name: 'no module set', module: null },
  ])(
    'returns the map with expoe: null per module, a warning and what to do ($name)',
    ({ module }) => {
      const listing = listModuleContractsForDev({ module, moduleMap: map, contracts: null });
      expect(listing.structured.modules).toHaveLength(6);
      expect(
        listing.structured.modules.every(
          (entry) => entry.detail === 'full' && entry.expoe === null,
        ),
      ).toBe(true);
      expect(listing.text.match(/— expoe: null \(no contract declared\)/g)).toHaveLength(6);
      expect(listing.text).toContain(
        'Warning: no module contracts have been declared in this project yet: every module of the map is listed with expoe: null.',
      );
      expect(listing.text).toContain('implement from what your story and task say');
      expect(listing.text).toContain(
        'call report_blocked naming the module and the missing interface',
      );
      expect(listing.text).not.toMatch(/read .* in its worktree to/);
    },
  );

  it('says there is no map yet when there is none', () => {
    const listing = listModuleContractsForDev({
      module: 'board-engine',
      moduleMap: null,
      contracts: null,
    });
    expect(listing.structured.modules).toEqual([]);
    expect(listing.text).toContain(
      'Warning: this project has no module map yet, so no module has a contract.',
    );
    expect(listing.text).toContain('call report_blocked');
  });
});

describe('listModuleContractsForDev — arguments from the model', () => {
  it('ignores them and says so', () => {
    const listing = listModuleContractsForDev({
      module: 'board-engine',
      moduleMap: map,
      contracts: null,
      argumentsIgnored: ['projectId', 'module'],
    });
    expect(listing.structured.module).toBe('board-engine');
    expect(listing.text).toContain(
      'Note: listar_contratos_de_modulos takes no arguments; ignored: module, projectId. The module comes from your task context, never from arguments.',
    );
  });

  it('adds no note when there were none', () => {
    expect(
      listModuleContractsForDev({ module: 'board-engine', moduleMap: map, contracts: null }).text,
    ).not.toContain('ignored:');
  });
});

describe('listModuleContractsForDev — properties', () => {
  const scenario = acyclicMapArbitrary.chain((currentMap) => {
    const names = currentMap.modules.map((module) => module.name);
    return fc.record({
      map: fc.constant(currentMap),
      module: fc.option(fc.constantFrom(...names, 'departed'), { nil: null }),
      counts: fc.dictionary(
        fc.constantFrom(...names, 'departed', 'gone-too'),
        fc.integer({ min: 1, max: 40 }),
      ),
      maxItems: fc.integer({ min: 0, max: 150 }),
    });
  });

  it('never lists more than the ceiling, and lists exactly what fits of the modules shown in full', () => {
    fc.assert(
      fc.property(scenario, ({ map: currentMap, module, counts, maxItems }) => {
        const contracts = Object.keys(counts).length === 0 ? null : contractsOf(counts);
        const listing = listModuleContractsForDev({
          module,
          moduleMap: currentMap,
          contracts,
          maxItems,
        });
        const lines = itemLines(listing.text);
        const eligible = listing.structured.modules.reduce(
          (sum, entry) => sum + (entry.detail === 'full' ? (entry.declaredItems ?? 0) : 0),
          0,
        );
        expect(lines.length).toBeLessThanOrEqual(maxItems);
        expect(lines.length).toBe(Math.min(maxItems, eligible));
        expect(listing.structured.omittedItems).toBe(eligible - lines.length);
        expect(listing.text.includes('Left out by the ceiling')).toBe(eligible > maxItems);
      }),
    );
  });

  it('never shows an item of a name-only module or of a module outside the map', () => {
    fc.assert(
      fc.property(scenario, ({ map: currentMap, module, counts, maxItems }) => {
        const listing = listModuleContractsForDev({
          module,
          moduleMap: currentMap,
          contracts: contractsOf({ ...counts }),
          maxItems,
        });
        const full = new Set(
          listing.structured.modules
            .filter((entry) => entry.detail === 'full')
            .map((entry) => entry.name),
        );
        for (const line of itemLines(listing.text)) {
          const owner = /\] (.+)\.f\d+\(\)$/.exec(line)?.[1] ?? '';
          expect(full.has(owner)).toBe(true);
        }
      }),
    );
  });

  it('is deterministic: the order the map was written in does not change the text', () => {
    fc.assert(
      fc.property(
        scenario.chain((input) => fc.tuple(fc.constant(input), shuffledMapArbitrary(input.map))),
        ([{ map: currentMap, module, counts, maxItems }, shuffled]) => {
          const contracts = contractsOf(counts);
          const left = listModuleContractsForDev({
            module,
            moduleMap: currentMap,
            contracts,
            maxItems,
          });
          const right = listModuleContractsForDev({
            module,
            moduleMap: shuffled,
            contracts,
            maxItems,
          });
          expect(right.text).toBe(left.text);
        },
      ),
    );
  });
});
