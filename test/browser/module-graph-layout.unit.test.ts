import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GRAPH_SIZES, layoutModuleGraph } from '../../web/src/production/layout-module-graph.ts';
import type { ModuleDeclaration } from '../../web/src/session/fold/session-view.ts';

const module = (name: string, dependsOn: string[] = []): ModuleDeclaration => ({
  name,
  stack: 'TypeScript',
  responsibility: name,
  dependsOn,
});
const nodeOf = (layout: ReturnType<typeof layoutModuleGraph>, name: string) =>
  layout.nodes.find((node) => node.name === name)!;

/** Start and end points of an SVG path `M x y … x y`. */
function ends(path: string): { start: [number, number]; end: [number, number] } {
  const numbers = path.match(/-?\d+(\.\d+)?/g)!.map(Number);
  return { start: [numbers[0]!, numbers[1]!], end: [numbers.at(-2)!, numbers.at(-1)!] };
}

describe('layoutModuleGraph', () => {
  it('puts modules in rows by depth: what depends on nothing at the bottom, each module above what it uses', () => {
    const layout = layoutModuleGraph([
      module('web', ['api', 'auth']),
      module('api', ['db', 'auth']),
      module('auth', ['db']),
      module('db'),
    ]);
    expect(Object.fromEntries(layout.nodes.map((node) => [node.name, node.depth]))).toEqual({
      db: 0,
      auth: 1,
      api: 2,
      web: 3,
    });
    expect(nodeOf(layout, 'web').y).toBeLessThan(nodeOf(layout, 'api').y);
    expect(nodeOf(layout, 'api').y).toBeLessThan(nodeOf(layout, 'auth').y);
    expect(nodeOf(layout, 'auth').y).toBeLessThan(nodeOf(layout, 'db').y);
    expect(layout.edges.map((edge) => `${edge.from}->${edge.to}`).sort()).toEqual([
      'api->auth',
      'api->db',
      'auth->db',
      'web->api',
      'web->auth',
    ]);
  });

  it('routes an arrow that skips rows around the boxes in between', () => {
    const layout = layoutModuleGraph([
      module('web', ['api', 'db']),
      module('api', ['db']),
      module('db'),
    ]);
    const api = nodeOf(layout, 'api');
    const skip = layout.edges.find((edge) => edge.from === 'web' && edge.to === 'db')!;
    // The bend in api's row is a vertical line segment beside the api box, not across it.
    const line = / L (-?[\d.]+) (-?[\d.]+)/.exec(skip.path)!;
    const bendX = Number(line[1]);
    expect(bendX < api.x || bendX > api.x + GRAPH_SIZES.nodeWidth).toBe(true);
  });

  it('orders a row by its neighbours, so two independent pairs do not cross', () => {
    const layout = layoutModuleGraph([
      module('a', ['d']),
      module('b', ['c']),
      module('c'),
      module('d'),
    ]);
    expect(nodeOf(layout, 'a').x < nodeOf(layout, 'b').x).toBe(
      nodeOf(layout, 'd').x < nodeOf(layout, 'c').x,
    );
  });

  it('lists dependencies on modules that are not in the map, and draws the rest', () => {
    const layout = layoutModuleGraph([module('web', ['api', 'ghost']), module('api')]);
    expect(layout.unknownDependencies).toEqual([{ module: 'web', dependency: 'ghost' }]);
    expect(layout.edges).toHaveLength(1);
  });

  it('survives what a valid map never has: a cycle, a self-dependency, a repeated module, an empty map', () => {
    expect(() =>
      layoutModuleGraph([module('a', ['b']), module('b', ['a']), module('c', ['c']), module('c')]),
    ).not.toThrow();
    expect(layoutModuleGraph([])).toMatchObject({ nodes: [], edges: [] });
  });

  it('for any acyclic map: rows never overlap, arrows go down from the bottom of a module to the top of what it uses', () => {
    const acyclicMap = fc.integer({ min: 1, max: 14 }).chain((count) =>
      fc
        .array(fc.array(fc.nat({ max: count }), { maxLength: 4 }), {
          minLength: count,
          maxLength: count,
        })
        .map((dependencies) =>
          dependencies.map((targets, index) =>
            module(
              `m${index}`,
              targets.filter((target) => target < index).map((target) => `m${target}`),
            ),
          ),
        ),
    );
    fc.assert(
      fc.property(acyclicMap, (modules) => {
        const layout = layoutModuleGraph(modules);
        expect(layout.nodes).toHaveLength(modules.length);
        const rows = Map.groupBy(layout.nodes, (node) => node.y);
        for (const row of rows.values()) {
          const sorted = [...row].sort((a, b) => a.x - b.x);
          for (let index = 1; index < sorted.length; index += 1)
            expect(sorted[index]!.x - sorted[index - 1]!.x).toBeGreaterThanOrEqual(
              GRAPH_SIZES.nodeWidth,
            );
        }
        for (const node of layout.nodes) {
          expect(node.x).toBeGreaterThanOrEqual(0);
          expect(node.x + GRAPH_SIZES.nodeWidth).toBeLessThanOrEqual(layout.width);
        }
        for (const edge of layout.edges) {
          const from = nodeOf(layout, edge.from);
          const to = nodeOf(layout, edge.to);
          expect(from.depth).toBeGreaterThan(to.depth);
          const { start, end } = ends(edge.path);
          expect(start[1]).toBeCloseTo(from.y + GRAPH_SIZES.nodeHeight);
          expect(end[1]).toBeCloseTo(to.y);
          expect(start[0]).toBeGreaterThanOrEqual(from.x);
          expect(end[0]).toBeLessThanOrEqual(to.x + GRAPH_SIZES.nodeWidth);
        }
      }),
      { numRuns: 200 },
    );
  });
});
