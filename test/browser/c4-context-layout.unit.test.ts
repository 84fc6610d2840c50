import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Box,
  type C4Context,
  intersect,
  layoutC4Context,
  readC4Context,
  wrap,
} from '../../web/src/production/layout-c4-context.ts';

const BAKERY: C4Context = {
  system: { name: 'Padaria', description: 'Pão de madrugada por assinatura' },
  actors: [
    { id: 'cliente', kind: 'person', name: 'Cliente', description: 'Assina o pão' },
    { id: 'padeiro', kind: 'person', name: 'Padeiro', description: null },
    { id: 'pagamentos', kind: 'external_system', name: 'Gateway de pagamento', description: null },
  ],
  relations: [
    { from: 'cliente', to: 'system', description: 'assina e escolhe o pão' },
    { from: 'system', to: 'cliente', description: 'avisa quando o pão sai' },
    { from: 'padeiro', to: 'pedidos', description: 'vê os pedidos do dia' },
    { from: 'system', to: 'pagamentos', description: 'cobra a assinatura' },
    { from: 'pedidos', to: 'entrega', description: 'module to module' },
  ],
};

const nodeOf = (layout: ReturnType<typeof layoutC4Context>, id: string) =>
  layout.nodes.find((node) => node.id === id)!;
const centreOf = (box: Box) => [box.x + box.width / 2, box.y + box.height / 2] as const;

describe('layoutC4Context', () => {
  it('puts the system in the middle, people above it and external systems below it', () => {
    const layout = layoutC4Context(BAKERY);
    const system = nodeOf(layout, 'system');
    expect(system).toMatchObject({ kind: 'system', name: 'Padaria' });
    for (const id of ['cliente', 'padeiro'])
      expect(nodeOf(layout, id).y + nodeOf(layout, id).height).toBeLessThan(system.y);
    expect(nodeOf(layout, 'pagamentos').y).toBeGreaterThan(system.y + system.height);
    // Left and right of the middle in the picture's own width.
    const [x] = centreOf(system);
    expect(Math.abs(x - layout.width / 2)).toBeLessThan(layout.width / 4);
  });

  it('draws one labelled arrow per pair, both ways when relations go both ways, a module relation to the system', () => {
    const layout = layoutC4Context(BAKERY);
    const edges = Object.fromEntries(layout.edges.map((edge) => [`${edge.from}-${edge.to}`, edge]));
    expect(Object.keys(edges).sort()).toEqual([
      'cliente-system',
      'padeiro-system',
      'system-pagamentos',
    ]);
    expect(edges['cliente-system']).toMatchObject({ forward: true, backward: true });
    expect(edges['cliente-system']!.label.lines.join(' ')).toBe(
      'assina e escolhe o pão avisa quando o pão sai',
    );
    expect(edges['padeiro-system']).toMatchObject({ forward: true, backward: false });
    expect(edges['padeiro-system']!.label.lines.join(' ')).toBe('pedidos: vê os pedidos do dia');
    expect(layout.internal).toEqual([
      { from: 'pedidos', to: 'entrega', description: 'module to module' },
    ]);
  });

  it('starts and ends each arrow on the borders of its two boxes', () => {
    const layout = layoutC4Context(BAKERY);
    for (const edge of layout.edges) {
      const [x1, y1, x2, y2] = edge.path.match(/-?\d+(\.\d+)?/g)!.map(Number);
      const onBorder = (box: Box, x: number, y: number) =>
        (Math.abs(x - box.x) < 0.2 || Math.abs(x - box.x - box.width) < 0.2
          ? y >= box.y - 0.2 && y <= box.y + box.height + 0.2
          : false) ||
        (Math.abs(y - box.y) < 0.2 || Math.abs(y - box.y - box.height) < 0.2
          ? x >= box.x - 0.2 && x <= box.x + box.width + 0.2
          : false);
      expect(onBorder(nodeOf(layout, edge.from), x1!, y1!), edge.path).toBe(true);
      expect(onBorder(nodeOf(layout, edge.to), x2!, y2!), edge.path).toBe(true);
    }
  });

  it('keeps every box and label apart and inside the picture, whatever the diagram; the same input lays out the same', () => {
    const actor = fc.record({
      id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l'),
      kind: fc.constantFrom('person' as const, 'external_system' as const),
      name: fc.string({ maxLength: 40 }),
      description: fc.constant(null),
    });
    const diagram = fc.array(actor, { minLength: 0, maxLength: 12 }).chain((actors) =>
      fc.record({
        system: fc.record({
          name: fc.string({ minLength: 1, maxLength: 30 }),
          description: fc.string(),
        }),
        actors: fc.constant(actors),
        relations: fc.array(
          fc.record({
            from: fc.constantFrom('system', 'api', ...actors.map((entry) => entry.id)),
            to: fc.constantFrom('system', 'web', ...actors.map((entry) => entry.id)),
            description: fc.lorem({ maxCount: 12 }),
          }),
          { maxLength: 16 },
        ),
      }),
    );
    fc.assert(
      fc.property(diagram, (context) => {
        const layout = layoutC4Context(context);
        const boxes: Box[] = [...layout.nodes, ...layout.edges.map((edge) => edge.label)];
        for (let a = 0; a < boxes.length; a += 1) {
          const box = boxes[a]!;
          expect(box.x).toBeGreaterThanOrEqual(0);
          expect(box.y).toBeGreaterThanOrEqual(0);
          expect(box.x + box.width).toBeLessThanOrEqual(layout.width);
          expect(box.y + box.height).toBeLessThanOrEqual(layout.height);
          for (let b = a + 1; b < boxes.length; b += 1)
            expect(intersect(box, boxes[b]!), JSON.stringify([box, boxes[b]])).toBe(false);
        }
        expect(layoutC4Context(context)).toEqual(layout);
      }),
      { numRuns: 150 },
    );
  });

  it('wraps a label into lines of at most 24 characters, cutting a longer word', () => {
    expect(wrap('cobra a assinatura todo mês no cartão de crédito')).toEqual([
      'cobra a assinatura todo',
      'mês no cartão de crédito',
    ]);
    expect(wrap('x'.repeat(30))).toEqual([`${'x'.repeat(23)}…`]);
  });
});

describe('readC4Context', () => {
  it('reads an artifact payload defensively and gives up only without a system name', () => {
    expect(readC4Context({ version: 1, system: { description: 'd' } })).toBeNull();
    expect(readC4Context(null)).toBeNull();
    expect(
      readC4Context({
        system: { name: 'S', description: 'd' },
        actors: [
          { id: 'p', kind: 'person', name: 'P' },
          { kind: 'person' },
          'junk',
          { id: 'system' },
        ],
        relations: [
          { from: 'p', to: 'system', description: 'uses' },
          { from: 'p' },
          { from: 'p', to: 'p' },
        ],
      }),
    ).toEqual({
      system: { name: 'S', description: 'd' },
      actors: [{ id: 'p', kind: 'person', name: 'P', description: null }],
      relations: [{ from: 'p', to: 'system', description: 'uses' }],
    });
  });
});
