import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listModuleContractsForDev } from '../../domain/architecture/index.ts';
import type { Database } from '../../store/index.ts';
import { testDatabaseEngines } from '../../store/testing/test-databases.ts';
import { openLineFixture, type LineFixture } from './test-support/line-fixture.ts';
import { listModuleContractsTool } from './list-module-contracts-tool.ts';

const module = (name: string, dependsOn: string[] = []) => ({
  name,
  stack: 'TypeScript',
  responsibility: `Responsável por ${name}`,
  dependsOn,
});
const items = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, index) => ({
    tipo: 'funcao',
    assinatura: `${prefix}.f${index}()`,
  }));
const itemLines = (text: string) => text.split('\n').filter((line) => line.startsWith('- ['));

describe.each(testDatabaseEngines())(
  'listar_contratos_de_modulos through the tool on $name',
  (engine) => {
    let database: Database;
    let fixture: LineFixture;
    beforeAll(async () => (database = await engine.open()));
    afterAll(() => database.close());
    beforeEach(async () => (fixture = await openLineFixture(engine, { database })));
    afterEach(() => fixture.close());
    const tools = () => [listModuleContractsTool(fixture.line)];
    const devOf = (name: string) => ({ agent: `dev:${name}`, module: name });

    it('shows its own module and what it consumes in full, the rest by name, with the module from the loop, not the model', async () => {
      await fixture.recordArtifact('module_map', {
        version: 1,
        modules: [
          module('catalogo'),
          module('pedidos', ['catalogo']),
          module('entrega', ['pedidos']),
          module('relatorios'),
        ],
      });
      await fixture.recordArtifact('module_contracts', {
        version: 1,
        contratos: [
          { modulo: 'catalogo', expoe: items('catalogo', 2) },
          { modulo: 'pedidos', expoe: items('pedidos', 1) },
          { modulo: 'relatorios', expoe: items('relatorios', 3) },
        ],
      });
      const outcome = await fixture.call(
        tools(),
        'listar_contratos_de_modulos',
        { modulo: 'relatorios' },
        devOf('pedidos'),
      );
      expect(outcome.ok).toBe(true);
      expect(itemLines(outcome.result)).toEqual([
        '- [funcao] pedidos.f0()',
        '- [funcao] catalogo.f0()',
        '- [funcao] catalogo.f1()',
      ]);
      expect(outcome.result).toContain('Modules that consume pedidos (by name only): entrega');
      expect(outcome.result).toContain('Other modules (by name only): relatorios');
      expect(outcome.result).toContain(
        'Note: listar_contratos_de_modulos takes no arguments; ignored: modulo.',
      );
      expect(outcome.result).toContain(
        "Another module's interface is read here, never in its worktree",
      );
    });

    it('lists at most 120 items and says what was left out', async () => {
      await fixture.recordArtifact('module_map', {
        version: 1,
        modules: [module('a'), module('b'), module('c'), module('d', ['a', 'b', 'c'])],
      });
      await fixture.recordArtifact('module_contracts', {
        version: 1,
        contratos: ['a', 'b', 'c', 'd'].map((name) => ({ modulo: name, expoe: items(name, 40) })),
      });
      const outcome = await fixture.call(tools(), 'listar_contratos_de_modulos', {}, devOf('d'));
      expect(itemLines(outcome.result)).toHaveLength(120);
      expect(outcome.result).toContain(
        'Left out by the ceiling of 120 items: all 40 items of c (40 items in all, declared but not listed here).',
      );
    });

    it('declares the contract of a module that left the map, never attributing it', async () => {
      await fixture.recordArtifact('module_contracts', {
        version: 1,
        contratos: [{ modulo: 'estoque', expoe: items('estoque', 2) }],
      });
      await fixture.recordArtifact('module_map', {
        version: 1,
        modules: [module('catalogo'), module('estoque')],
      });
      await fixture.recordArtifact('module_map', { version: 2, modules: [module('catalogo')] });
      const outcome = await fixture.call(
        tools(),
        'listar_contratos_de_modulos',
        {},
        devOf('catalogo'),
      );
      expect(outcome.result).toContain(
        'Contracts declared for modules that are not in the current module map — declared here, not attributed to any module, not shown: estoque (2 items).',
      );
      expect(outcome.result).not.toContain('estoque.f0()');
    });

    it('without contracts, lists the map with expoe: null, warns and says what to do', async () => {
      await fixture.recordArtifact('module_map', {
        version: 1,
        modules: [module('catalogo'), module('pedidos', ['catalogo'])],
      });
      const outcome = await fixture.call(
        tools(),
        'listar_contratos_de_modulos',
        {},
        devOf('pedidos'),
      );
      expect(outcome.result).toContain(
        'Warning: no module contracts have been declared in this project yet: every module of the map is listed with expoe: null.',
      );
      expect(outcome.result).toContain(
        '## pedidos (your module) — expoe: null (no contract declared)',
      );
      expect(outcome.result).toContain(
        'call report_blocked naming the module and the missing interface',
      );
    });

    it('reads the current version: the highest, ties to the later declaration — the same text as the pure listing', async () => {
      const map = { version: 1, modules: [module('catalogo'), module('pedidos', ['catalogo'])] };
      await fixture.recordArtifact('module_map', map);
      await fixture.recordArtifact('module_contracts', {
        version: 2,
        contratos: [{ modulo: 'catalogo', expoe: items('v2', 1) }],
      });
      await fixture.recordArtifact('module_contracts', {
        version: 1,
        contratos: [{ modulo: 'catalogo', expoe: items('v1', 1) }],
      });
      const latest = {
        version: 2,
        contratos: [{ modulo: 'catalogo', expoe: items('v2-again', 1) }],
      };
      await fixture.recordArtifact('module_contracts', latest);
      const outcome = await fixture.call(
        tools(),
        'listar_contratos_de_modulos',
        {},
        devOf('pedidos'),
      );
      expect(outcome.result).toBe(
        listModuleContractsForDev({
          module: 'pedidos',
          moduleMap: map as never,
          contracts: latest as never,
          argumentsIgnored: [],
        }).text,
      );
    });
  },
);
