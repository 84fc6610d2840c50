import { InvariantViolationError } from '../errors/index.ts';

/** Who depends on whom: module name → the names in its `dependsOn` (edges point at the dependency). */
export type DependencyEdges = ReadonlyMap<string, readonly string[]>;

/**
 * One dependency cycle per tangled group of modules (strongly connected component), each written as the
 * walk that closes it: `['a', 'b', 'c', 'a']` means a depends on b, b on c, c on a.
 *
 * Deterministic whatever the order of the map: each cycle starts at the alphabetically first module of its
 * group and follows the shortest way back, preferring alphabetically first dependencies; cycles are
 * ordered by their first module. One cycle per group, not every cycle, because breaking one edge of each
 * group is what the Arquiteto must do first, and the number of cycles can grow exponentially.
 * Self-dependencies are not cycles here (the map reports them on their own).
 */
export function findDependencyCycles(edges: DependencyEdges): string[][] {
  const groups = stronglyConnectedGroups(edges).filter((group) => group.length > 1);
  return groups
    .map((group) => shortestCycleThrough(group[0] as string, new Set(group), edges))
    .sort((left, right) => compareText(left[0] ?? '', right[0] ?? ''));
}

/** Formats a cycle for a reason text: `a → b → c → a`. */
export function formatCycle(cycle: readonly string[]): string {
  return cycle.join(' → ');
}

function sortedDependencies(edges: DependencyEdges, name: string): string[] {
  return [...new Set(edges.get(name) ?? [])]
    .filter((dependency) => dependency !== name)
    .sort(compareText);
}

/** Tarjan's algorithm over sorted names; each group is returned sorted. */
function stronglyConnectedGroups(edges: DependencyEdges): string[][] {
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let counter = 0;

  const visit = (name: string): void => {
    index.set(name, counter);
    lowLink.set(name, counter);
    counter += 1;
    stack.push(name);
    onStack.add(name);
    for (const dependency of sortedDependencies(edges, name)) {
      if (!edges.has(dependency)) continue;
      if (!index.has(dependency)) {
        visit(dependency);
        lowLink.set(name, Math.min(lowLink.get(name) as number, lowLink.get(dependency) as number));
      } else if (onStack.has(dependency)) {
        lowLink.set(name, Math.min(lowLink.get(name) as number, index.get(dependency) as number));
      }
    }
    if (lowLink.get(name) === index.get(name)) {
      const group: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        group.push(member);
      } while (member !== name);
      groups.push(group.sort(compareText));
    }
  };

  for (const name of [...edges.keys()].sort(compareText)) {
    if (!index.has(name)) visit(name);
  }
  return groups;
}

/** Breadth-first from `start` inside its group until an edge leads back to `start`. */
function shortestCycleThrough(
  start: string,
  group: ReadonlySet<string>,
  edges: DependencyEdges,
): string[] {
  const cameFrom = new Map<string, string>([[start, start]]);
  const queue = [start];
  for (let head = 0; head < queue.length; head += 1) {
    const current = queue[head] as string;
    for (const dependency of sortedDependencies(edges, current)) {
      if (dependency === start) return [...pathTo(current, cameFrom, start), start];
      if (group.has(dependency) && !cameFrom.has(dependency)) {
        cameFrom.set(dependency, current);
        queue.push(dependency);
      }
    }
  }
  // A group of two or more modules always has a way back to any of its members.
  throw new InvariantViolationError(
    'dependency_cycle',
    `no cycle through "${start}" in its own strongly connected group`,
  );
}

function pathTo(end: string, cameFrom: ReadonlyMap<string, string>, start: string): string[] {
  const path = [end];
  let current = end;
  while (current !== start) {
    current = cameFrom.get(current) as string;
    path.push(current);
  }
  return path.reverse();
}

/** Plain code-unit order, independent of locale, so names sort the same on every machine. */
export function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
