import type { ModuleDeclaration } from '../session/fold/session-view.ts';

/**
 * Lays out an acyclic module map in layers by topological depth (a small Sugiyama layout, no library):
 * modules that depend on nothing form the bottom row and each module sits one row above its deepest
 * dependency, so every arrow points down, from a module to what it uses. An arrow that spans several rows
 * passes through a bend point in each row between, so it goes around boxes instead of through them. Rows
 * are ordered by barycenter sweeps (fewer crossings), and each item is pulled towards its neighbours'
 * mean position without overlapping its row. Pure and deterministic.
 */
export type GraphNode = {
  name: string;
  stack: string;
  responsibility: string;
  depth: number;
  x: number;
  y: number;
};
export type GraphEdge = { from: string; to: string; path: string };
export type GraphLayout = {
  width: number;
  height: number;
  nodeWidth: number;
  nodeHeight: number;
  nodes: GraphNode[];
  edges: GraphEdge[];
  unknownDependencies: Array<{ module: string; dependency: string }>;
};

export const GRAPH_SIZES = {
  nodeWidth: 190,
  nodeHeight: 56,
  bendWidth: 14,
  gap: 34,
  verticalGap: 76,
  padding: 24,
} as const;

/** A box (module) or a bend point of a long arrow, in one row. `x` is its centre. */
type Item = {
  id: string;
  module: ModuleDeclaration | null;
  depth: number;
  up: string[];
  down: string[];
  x: number;
};

export function layoutModuleGraph(modules: readonly ModuleDeclaration[]): GraphLayout {
  const byName = new Map<string, ModuleDeclaration>();
  for (const module of modules) if (!byName.has(module.name)) byName.set(module.name, module);
  const unknownDependencies = [...byName.values()].flatMap((module) =>
    module.dependsOn
      .filter((dependency) => !byName.has(dependency))
      .map((dependency) => ({ module: module.name, dependency })),
  );
  const dependencies = (name: string) =>
    [...new Set(byName.get(name)!.dependsOn)].filter(
      (dependency) => byName.has(dependency) && dependency !== name,
    );
  const depth = depthsOf([...byName.keys()], dependencies);

  const items = new Map<string, Item>();
  for (const [name, module] of byName)
    items.set(name, { id: name, module, depth: depth.get(name)!, up: [], down: [], x: 0 });
  const chains = [...byName.keys()].flatMap((from) =>
    dependencies(from).map((to) => ({ from, to, path: chainBetween(items, from, to) })),
  );

  const layerCount = Math.max(0, ...[...items.values()].map((item) => item.depth)) + 1;
  const layers: Item[][] = Array.from({ length: layerCount }, () => []);
  for (const item of [...items.values()].sort(
    (a, b) => Number(a.module === null) - Number(b.module === null) || a.id.localeCompare(b.id),
  ))
    layers[item.depth]!.push(item);
  orderLayers(layers);
  placeLayers(layers, items);

  const { nodeWidth, nodeHeight, verticalGap, padding } = GRAPH_SIZES;
  const all = [...items.values()];
  const left = Math.min(...all.map((item) => item.x - widthOf(item) / 2));
  const right = Math.max(...all.map((item) => item.x + widthOf(item) / 2));
  for (const item of all) item.x += padding - left;
  const rowTop = (itemDepth: number) =>
    padding + (layerCount - 1 - itemDepth) * (nodeHeight + verticalGap);
  const nodes = all
    .filter((item) => item.module !== null)
    .map((item) => ({
      name: item.id,
      stack: item.module!.stack,
      responsibility: item.module!.responsibility,
      depth: item.depth,
      x: item.x - nodeWidth / 2,
      y: rowTop(item.depth),
    }));
  return {
    width: Math.max(right - left, nodeWidth) + padding * 2,
    height: padding * 2 + layerCount * nodeHeight + (layerCount - 1) * verticalGap,
    nodeWidth,
    nodeHeight,
    nodes,
    edges: routeEdges(chains, items, rowTop),
    unknownDependencies,
  };
}

/** Depth 0 for a module with no dependency, else one more than its deepest dependency. A cycle (never valid) is cut. */
function depthsOf(
  names: readonly string[],
  dependencies: (name: string) => string[],
): Map<string, number> {
  const depth = new Map<string, number>();
  const visiting = new Set<string>();
  const visit = (name: string): number => {
    const known = depth.get(name);
    if (known !== undefined) return known;
    if (visiting.has(name)) return 0;
    visiting.add(name);
    const value = Math.max(-1, ...dependencies(name).map(visit)) + 1;
    visiting.delete(name);
    depth.set(name, value);
    return value;
  };
  for (const name of names) visit(name);
  return depth;
}

/** Links `from` to `to` through one bend item per row strictly between them; returns the ids along the way. */
function chainBetween(items: Map<string, Item>, from: string, to: string): string[] {
  const top = items.get(from)!.depth;
  const bottom = items.get(to)!.depth;
  const ids = [from];
  for (let row = top - 1; row > bottom; row -= 1) {
    const id = `${from}->${to}@${row}`;
    items.set(id, { id, module: null, depth: row, up: [], down: [], x: 0 });
    ids.push(id);
  }
  ids.push(to);
  for (let index = 1; index < ids.length; index += 1) {
    items.get(ids[index - 1]!)!.down.push(ids[index]!);
    items.get(ids[index]!)!.up.push(ids[index - 1]!);
  }
  return ids;
}

const widthOf = (item: Item) =>
  item.module === null ? GRAPH_SIZES.bendWidth : GRAPH_SIZES.nodeWidth;

/** Barycenter sweeps: each row sorted by the mean position of its neighbours in the row just swept. */
function orderLayers(layers: Item[][]): void {
  const position = new Map<string, number>();
  const index = () =>
    layers.forEach((layer) =>
      layer.forEach((item, at) => position.set(item.id, at - (layer.length - 1) / 2)),
    );
  const sortBy = (layer: Item[], neighbours: (item: Item) => string[]) => {
    index();
    const key = new Map(
      layer.map((item) => [
        item.id,
        mean(neighbours(item).map((id) => position.get(id) ?? 0)) ?? position.get(item.id) ?? 0,
      ]),
    );
    layer.sort((a, b) => key.get(a.id)! - key.get(b.id)! || a.id.localeCompare(b.id));
  };
  for (let sweep = 0; sweep < 4; sweep += 1) {
    for (let row = layers.length - 2; row >= 0; row -= 1) sortBy(layers[row]!, (item) => item.up);
    for (let row = 1; row < layers.length; row += 1) sortBy(layers[row]!, (item) => item.down);
  }
}

/**
 * Pulls each item towards the mean x of its neighbours, keeping its row's order and spacing: the average of
 * a left-to-right and a right-to-left packing (both keep the spacing, so their average does too).
 */
function placeLayers(layers: Item[][], items: Map<string, Item>): void {
  const separation = (a: Item, b: Item) => (widthOf(a) + widthOf(b)) / 2 + GRAPH_SIZES.gap;
  for (const layer of layers) {
    let x = 0;
    layer.forEach((item, at) => {
      if (at > 0) x += separation(layer[at - 1]!, item);
      item.x = x;
    });
    const shift = x / 2;
    for (const item of layer) item.x -= shift;
  }
  const settle = (layer: Item[], neighbours: (item: Item) => string[]) => {
    const wanted = layer.map(
      (item) => mean(neighbours(item).map((id) => items.get(id)!.x)) ?? item.x,
    );
    const forward = [...wanted];
    for (let at = 1; at < layer.length; at += 1)
      forward[at] = Math.max(
        forward[at]!,
        forward[at - 1]! + separation(layer[at - 1]!, layer[at]!),
      );
    const backward = [...wanted];
    for (let at = layer.length - 2; at >= 0; at -= 1)
      backward[at] = Math.min(
        backward[at]!,
        backward[at + 1]! - separation(layer[at]!, layer[at + 1]!),
      );
    layer.forEach((item, at) => (item.x = (forward[at]! + backward[at]!) / 2));
  };
  for (let sweep = 0; sweep < 6; sweep += 1) {
    for (let row = layers.length - 2; row >= 0; row -= 1) settle(layers[row]!, (item) => item.up);
    for (let row = 1; row < layers.length; row += 1) settle(layers[row]!, (item) => item.down);
  }
  for (let row = layers.length - 2; row >= 0; row -= 1)
    settle(layers[row]!, (item) => [...item.up, ...item.down]);
}

/** One path per dependency: out of the module's bottom, down through its bends, into the top of what it uses. */
function routeEdges(
  chains: Array<{ from: string; to: string; path: string[] }>,
  items: Map<string, Item>,
  rowTop: (depth: number) => number,
): GraphEdge[] {
  const { nodeWidth, nodeHeight } = GRAPH_SIZES;
  const item = (id: string) => items.get(id)!;
  const outgoing = new Map<string, string[]>();
  const incoming = new Map<string, string[]>();
  for (const chain of chains) {
    outgoing.set(chain.from, [...(outgoing.get(chain.from) ?? []), chain.path[1]!]);
    incoming.set(chain.to, [...(incoming.get(chain.to) ?? []), chain.path.at(-2)!]);
  }
  for (const ends of [...outgoing.values(), ...incoming.values()])
    ends.sort((a, b) => item(a).x - item(b).x || a.localeCompare(b));
  const slot = (ends: string[], neighbour: string, owner: Item) =>
    owner.x - nodeWidth / 2 + (nodeWidth * (ends.indexOf(neighbour) + 1)) / (ends.length + 1);

  return chains.map(({ from, to, path }) => {
    const points: Array<[number, number]> = [
      [slot(outgoing.get(from)!, path[1]!, item(from)), rowTop(item(from).depth) + nodeHeight],
    ];
    for (const bend of path.slice(1, -1).map(item))
      points.push([bend.x, rowTop(bend.depth)], [bend.x, rowTop(bend.depth) + nodeHeight]);
    points.push([slot(incoming.get(to)!, path.at(-2)!, item(to)), rowTop(item(to).depth)]);
    let d = `M ${round(points[0]![0])} ${round(points[0]![1])}`;
    for (let at = 1; at < points.length; at += 1) {
      const [x0, y0] = points[at - 1]!;
      const [x1, y1] = points[at]!;
      const bend = Math.max(18, (y1 - y0) / 2);
      d +=
        at % 2 === 0 && at < points.length - 1
          ? ` L ${round(x1)} ${round(y1)}`
          : ` C ${round(x0)} ${round(y0 + bend)}, ${round(x1)} ${round(y1 - bend)}, ${round(x1)} ${round(y1)}`;
    }
    return { from, to, path: d };
  });
}

function mean(values: number[]): number | null {
  return values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
}

const round = (value: number) => Math.round(value * 10) / 10;
