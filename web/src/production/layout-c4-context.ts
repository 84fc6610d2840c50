import { fields, list, optionalText, text } from '../session/fold/read.ts';

/**
 * The C4 context level (`artifact.c4_diagram`) laid out as a picture: the software system in the middle,
 * people on the upper half of an ellipse around it and external systems on the lower half (one kind alone
 * takes the whole ellipse), a straight arrow per pair of things that meet, labelled with what the relations
 * say. A relation that names a module (inside the system) is drawn to the system's box, its label prefixed
 * with the module. The ellipse grows until no box or label overlaps another. Pure and deterministic; no
 * library (the module map's layout, layout-module-graph.ts, is layered instead: its edges are a DAG).
 */

/** The endpoint name of the system itself (src/domain/architecture/c4-diagram-schema.ts). */
export const C4_SYSTEM = 'system';

export type C4Kind = 'system' | 'person' | 'external_system';
export type C4Actor = {
  id: string;
  kind: 'person' | 'external_system';
  name: string;
  description: string | null;
};
export type C4Relation = { from: string; to: string; description: string };
export type C4Context = {
  system: { name: string; description: string };
  actors: C4Actor[];
  relations: C4Relation[];
};

export type Box = { x: number; y: number; width: number; height: number };
export type C4Node = Box & { id: string; kind: C4Kind; name: string };
export type C4Label = Box & { lines: string[] };
/** One arrow per pair: `forward` when something of `from` uses `to`, `backward` when the other way too. */
export type C4Edge = {
  from: string;
  to: string;
  path: string;
  forward: boolean;
  backward: boolean;
  label: C4Label;
};
export type C4Layout = {
  width: number;
  height: number;
  nodes: C4Node[];
  edges: C4Edge[];
  /** Relations with both ends inside the system (module to module): not drawn, listed in the text. */
  internal: C4Relation[];
};

export const C4_SIZES = {
  systemWidth: 230,
  systemHeight: 84,
  actorWidth: 170,
  actorHeight: 64,
  gap: 16,
  padding: 20,
  labelCharacters: 24,
  labelLines: 4,
  characterWidth: 6.6,
  lineHeight: 15,
  labelPadding: 4,
} as const;

const MAX_GROWTH_STEPS = 60;
const GROWTH = 1.12;

/** Reads an `artifact.c4_diagram` payload's data defensively; null when it has no system to draw. */
export function readC4Context(data: unknown): C4Context | null {
  const root = fields(data);
  const system = fields(root['system']);
  const name = optionalText(system['name']);
  if (name === null) return null;
  const actors = list(root['actors']).flatMap((entry): C4Actor[] => {
    const actor = fields(entry);
    const id = optionalText(actor['id']);
    if (id === null || id === C4_SYSTEM) return [];
    return [
      {
        id,
        kind: actor['kind'] === 'person' ? 'person' : 'external_system',
        name: text(actor['name'], id),
        description: optionalText(actor['description']),
      },
    ];
  });
  const relations = list(root['relations']).flatMap((entry): C4Relation[] => {
    // Destructured: the web dependency rule would read the index of that key as an import.
    const { from: rawFrom, to: rawTo, description } = fields(entry);
    const from = optionalText(rawFrom);
    const to = optionalText(rawTo);
    if (from === null || to === null || from === to) return [];
    return [{ from, to, description: text(description) }];
  });
  return { system: { name, description: text(system['description']) }, actors, relations };
}

export function layoutC4Context(context: C4Context): C4Layout {
  const actors = uniqueActors(context.actors);
  const actorIds = new Set(actors.map((actor) => actor.id));
  const endpoint = (name: string) => (actorIds.has(name) ? name : C4_SYSTEM);
  const internal: C4Relation[] = [];
  const pairs = new Map<string, { from: string; to: string; relations: C4Relation[] }>();
  for (const relation of context.relations) {
    const from = endpoint(relation.from);
    const to = endpoint(relation.to);
    if (from === to) {
      internal.push(relation);
      continue;
    }
    const key = [from, to].sort().join('\u0000');
    const pair = pairs.get(key) ?? { from, to, relations: [] };
    pair.relations.push(relation);
    pairs.set(key, pair);
  }

  const { systemWidth, systemHeight, actorWidth, actorHeight } = C4_SIZES;
  const system: C4Node = {
    id: C4_SYSTEM,
    kind: 'system',
    name: context.system.name,
    x: -systemWidth / 2,
    y: -systemHeight / 2,
    width: systemWidth,
    height: systemHeight,
  };
  const angles = anglesOf(actors);
  const labelsOf = [...pairs.values()].map((pair) => labelLines(pair.relations, actorIds));

  // The smallest ellipse (from a start that leaves room for one label between system and actor) with nothing overlapping.
  let rx = systemWidth / 2 + actorWidth / 2 + 120;
  let ry = systemHeight / 2 + actorHeight / 2 + 70;
  let placed = place(system, actors, angles, rx, ry, [...pairs.values()], labelsOf);
  for (let step = 0; step < MAX_GROWTH_STEPS && overlaps(placed); step += 1) {
    rx *= GROWTH;
    ry *= GROWTH;
    placed = place(system, actors, angles, rx, ry, [...pairs.values()], labelsOf);
  }
  return shifted(placed, internal);
}

/** The first actor of each id (the schema refuses repeats; an old or broken log may still have them). */
function uniqueActors(actors: readonly C4Actor[]): C4Actor[] {
  const seen = new Set<string>();
  return actors.filter((actor) => !seen.has(actor.id) && seen.add(actor.id));
}

/** Each actor's angle (0 = right, clockwise with y down): people across the top, external systems across the bottom. */
function anglesOf(actors: readonly C4Actor[]): number[] {
  const people = actors.filter((actor) => actor.kind === 'person');
  const externals = actors.filter((actor) => actor.kind !== 'person');
  const spread = (count: number, start: number, span: number) =>
    Array.from({ length: count }, (_, at) => start + ((at + 0.5) * span) / count);
  const [peopleAngles, externalAngles] =
    people.length === 0 || externals.length === 0
      ? [
          spread(people.length, -Math.PI / 2 - Math.PI, 2 * Math.PI),
          spread(externals.length, -Math.PI / 2 - Math.PI, 2 * Math.PI),
        ]
      : [spread(people.length, Math.PI, Math.PI), spread(externals.length, Math.PI, -Math.PI)];
  const angle = new Map<C4Actor, number>();
  people.forEach((actor, at) => angle.set(actor, peopleAngles[at]!));
  externals.forEach((actor, at) => angle.set(actor, externalAngles[at]!));
  return actors.map((actor) => angle.get(actor)!);
}

type Placed = { nodes: C4Node[]; edges: C4Edge[] };

function place(
  system: C4Node,
  actors: readonly C4Actor[],
  angles: readonly number[],
  rx: number,
  ry: number,
  pairs: ReadonlyArray<{ from: string; to: string; relations: C4Relation[] }>,
  labels: readonly string[][],
): Placed {
  const { actorWidth, actorHeight } = C4_SIZES;
  const nodes: C4Node[] = [
    system,
    ...actors.map((actor, at) => ({
      id: actor.id,
      kind: actor.kind,
      name: actor.name,
      x: rx * Math.cos(angles[at]!) - actorWidth / 2,
      y: ry * Math.sin(angles[at]!) - actorHeight / 2,
      width: actorWidth,
      height: actorHeight,
    })),
  ];
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const angleById = new Map(actors.map((actor, at) => [actor.id, angles[at]!]));
  const angleOf = (id: string) => angleById.get(id)!;
  const edges = pairs.map((pair, at) => {
    const from = byId.get(pair.from)!;
    const to = byId.get(pair.to)!;
    const lines = labels[at]!;
    const width =
      Math.max(...lines.map((line) => line.length)) * C4_SIZES.characterWidth +
      2 * C4_SIZES.labelPadding;
    const height = lines.length * C4_SIZES.lineHeight + 2 * C4_SIZES.labelPadding;
    const route =
      pair.from === C4_SYSTEM || pair.to === C4_SYSTEM
        ? straight(from, to)
        : aroundTheSystem(from, to, angleOf(pair.from), angleOf(pair.to), rx, ry);
    return {
      from: pair.from,
      to: pair.to,
      path: route.path,
      forward: pair.relations.some((relation) => endpointOf(relation.from, byId) === pair.from),
      backward: pair.relations.some((relation) => endpointOf(relation.from, byId) === pair.to),
      label: {
        x: route.middle[0] - width / 2,
        y: route.middle[1] - height / 2,
        width,
        height,
        lines,
      },
    };
  });
  return { nodes, edges };
}

type Route = { path: string; middle: [number, number] };
type Point = [number, number];

/** A straight arrow between the system and an actor, its label half way. */
function straight(from: Box, to: Box): Route {
  const start = borderPoint(from, centre(to));
  const end = borderPoint(to, centre(from));
  return {
    path: `M ${round(start[0])} ${round(start[1])} L ${round(end[0])} ${round(end[1])}`,
    middle: [(start[0] + end[0]) / 2, (start[1] + end[1]) / 2],
  };
}

/**
 * Between two actors: a curve whose middle lies outside the ring, at the angle half way between them and
 * the farther out the farther apart they are, so it never crosses the system's box (a straight line between
 * two opposite actors would). Its label sits there, and moves away from everything as the ring grows.
 */
function aroundTheSystem(from: Box, to: Box, a: number, b: number, rx: number, ry: number): Route {
  const sumX = Math.cos(a) + Math.cos(b);
  const sumY = Math.sin(a) + Math.sin(b);
  const middleAngle = Math.hypot(sumX, sumY) < 1e-9 ? a + Math.PI / 2 : Math.atan2(sumY, sumX);
  // Farther out the farther apart the two are, so two pairs around the same angle keep their labels apart.
  const separation = Math.abs(Math.atan2(Math.sin(a - b), Math.cos(a - b)));
  const out = 1.4 + separation / Math.PI;
  const middle: Point = [out * rx * Math.cos(middleAngle), out * ry * Math.sin(middleAngle)];
  const [ax, ay] = centre(from);
  const [bx, by] = centre(to);
  // A quadratic Bézier passes through 1/4 A + 1/2 C + 1/4 B at its middle: C is chosen so that is `middle`.
  const control: Point = [2 * middle[0] - (ax + bx) / 2, 2 * middle[1] - (ay + by) / 2];
  const start = borderPoint(from, control);
  const end = borderPoint(to, control);
  return {
    path: `M ${round(start[0])} ${round(start[1])} Q ${round(control[0])} ${round(control[1])} ${round(end[0])} ${round(end[1])}`,
    middle,
  };
}

const endpointOf = (name: string, byId: ReadonlyMap<string, C4Node>) =>
  byId.has(name) && name !== C4_SYSTEM ? name : C4_SYSTEM;

/** A label's lines: each relation's words wrapped (a module named in front), at most `labelLines` in all. */
function labelLines(relations: readonly C4Relation[], actorIds: ReadonlySet<string>): string[] {
  const lines = relations.flatMap((relation) => {
    const module = [relation.from, relation.to].find(
      (name) => name !== C4_SYSTEM && !actorIds.has(name),
    );
    return wrap(module === undefined ? relation.description : `${module}: ${relation.description}`);
  });
  if (lines.length === 0) return [''];
  if (lines.length <= C4_SIZES.labelLines) return lines;
  const kept = lines.slice(0, C4_SIZES.labelLines);
  kept[kept.length - 1] = ellipsis(kept.at(-1)!, C4_SIZES.labelCharacters);
  return kept;
}

/** Words into lines of at most `labelCharacters`; a longer word is cut. */
export function wrap(words: string, characters: number = C4_SIZES.labelCharacters): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of words.split(/\s+/).filter((part) => part !== '')) {
    const piece = word.length > characters ? ellipsis(word, characters) : word;
    if (line === '') line = piece;
    else if (line.length + 1 + piece.length <= characters) line += ` ${piece}`;
    else {
      lines.push(line);
      line = piece;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

const ellipsis = (line: string, characters: number) =>
  line.length >= characters ? `${line.slice(0, characters - 1)}…` : `${line}…`;

/** Whether two boxes or labels overlap, each kept `gap` apart. */
function overlaps({ nodes, edges }: Placed): boolean {
  const boxes: Box[] = [...nodes, ...edges.map((edge) => edge.label)];
  for (let a = 0; a < boxes.length; a += 1)
    for (let b = a + 1; b < boxes.length; b += 1)
      if (intersect(boxes[a]!, boxes[b]!, C4_SIZES.gap)) return true;
  return false;
}

export function intersect(a: Box, b: Box, gap = 0): boolean {
  return (
    a.x < b.x + b.width + gap &&
    b.x < a.x + a.width + gap &&
    a.y < b.y + b.height + gap &&
    b.y < a.y + a.height + gap
  );
}

const centre = (box: Box): [number, number] => [box.x + box.width / 2, box.y + box.height / 2];

/** Where the line from the box's centre towards `toward` leaves the box. */
function borderPoint(box: Box, toward: [number, number]): [number, number] {
  const [cx, cy] = centre(box);
  const dx = toward[0] - cx;
  const dy = toward[1] - cy;
  if (dx === 0 && dy === 0) return [cx, cy];
  const scale = Math.min(
    dx === 0 ? Number.POSITIVE_INFINITY : box.width / 2 / Math.abs(dx),
    dy === 0 ? Number.POSITIVE_INFINITY : box.height / 2 / Math.abs(dy),
  );
  return [cx + dx * scale, cy + dy * scale];
}

/** Everything moved so the picture starts at the padding, sizes rounded. */
function shifted({ nodes, edges }: Placed, internal: C4Relation[]): C4Layout {
  const boxes: Box[] = [...nodes, ...edges.map((edge) => edge.label)];
  const left = Math.min(...boxes.map((box) => box.x));
  const top = Math.min(...boxes.map((box) => box.y));
  const right = Math.max(...boxes.map((box) => box.x + box.width));
  const bottom = Math.max(...boxes.map((box) => box.y + box.height));
  const { padding } = C4_SIZES;
  const dx = padding - left;
  const dy = padding - top;
  const move = <Item extends Box>(box: Item): Item => ({
    ...box,
    x: round(box.x + dx),
    y: round(box.y + dy),
  });
  return {
    width: Math.ceil(right - left + 2 * padding),
    height: Math.ceil(bottom - top + 2 * padding),
    nodes: nodes.map(move),
    edges: edges.map((edge) => ({
      ...edge,
      path: movePath(edge.path, dx, dy),
      label: move(edge.label),
    })),
    internal,
  };
}

/** A path of `M`, `L` and `Q` commands moved by (dx, dy): its numbers are x, y pairs. */
function movePath(path: string, dx: number, dy: number): string {
  let index = 0;
  return path.replace(/-?\d+(\.\d+)?/g, (number) =>
    String(round(Number(number) + (index++ % 2 === 0 ? dx : dy))),
  );
}

const round = (value: number) => Math.round(value * 10) / 10;
