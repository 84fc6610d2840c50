import { describe, expect, it } from 'vitest';
import type { GraphStore } from '../graph-store.ts';

/**
 * The one contract every GraphStore adapter is held to (STYLE: one suite per port, run against every
 * implementation). `open` gives a fresh, empty graph each time it is called.
 */
export function describeGraphStoreContract(name: string, open: () => Promise<GraphStore>): void {
  describe(`GraphStore contract: ${name}`, () => {
    const handoff = { label: 'Handoff', key: 'h1' };

    it('creates a node and finds it by natural key; an unknown key is null', async () => {
      const graph = await open();
      await graph.upsertNode({ ...handoff, properties: { status: 'offered', to_agent: 'po' } });
      expect(await graph.findNode(handoff)).toEqual({
        ...handoff,
        properties: { status: 'offered', to_agent: 'po' },
      });
      expect(await graph.findNode({ label: 'Handoff', key: 'nope' })).toBeNull();
    });

    it('is idempotent: the same writes twice give the same graph', async () => {
      const graph = await open();
      const writes = async () => {
        await graph.upsertNode({ ...handoff, properties: { status: 'offered' }, revision: '0001' });
        await graph.upsertEdge({
          type: 'TO_AGENT',
          from: handoff,
          to: { label: 'Agent', key: 'po' },
          properties: { since: 1 },
        });
      };
      await writes();
      const once = await graph.snapshot();
      await writes();
      expect(await graph.snapshot()).toEqual(once);
      expect(once.nodes).toHaveLength(2);
      expect(once.edges).toHaveLength(1);
    });

    it('without revision, merges properties and later values win', async () => {
      const graph = await open();
      await graph.upsertNode({ label: 'Event', key: 's#1', properties: { seq: 1 } });
      await graph.upsertNode({
        label: 'Event',
        key: 's#1',
        properties: { seq: 1, type: 'chat.message' },
      });
      await graph.upsertNode({ label: 'Event', key: 's#1', properties: { excerpt: 'oi' } });
      expect((await graph.findNode({ label: 'Event', key: 's#1' }))?.properties).toEqual({
        seq: 1,
        type: 'chat.message',
        excerpt: 'oi',
      });
    });

    it('with revisions, the newest write wins what it names and an older one only fills gaps, in any order', async () => {
      const proposed = {
        label: 'Hypothesis',
        key: 'x',
        properties: { statement: 'works at night', status: 'proposed' },
        revision: '0003',
      };
      const accepted = {
        label: 'Hypothesis',
        key: 'x',
        properties: { status: 'accepted', answered_at: 't' },
        revision: '0009',
      };
      for (const order of [
        [proposed, accepted],
        [accepted, proposed],
      ]) {
        const graph = await open();
        for (const write of order) await graph.upsertNode(write);
        const snapshot = await graph.snapshot();
        expect(snapshot.nodes).toEqual([
          {
            label: 'Hypothesis',
            key: 'x',
            properties: { statement: 'works at night', status: 'accepted', answered_at: 't' },
            revision: '0009',
          },
        ]);
      }
    });

    it('compares revisions byte-wise', async () => {
      const graph = await open();
      await graph.upsertNode({
        label: 'Profile',
        key: 'p',
        properties: { level: 'new' },
        revision: 'b',
      });
      await graph.upsertNode({
        label: 'Profile',
        key: 'p',
        properties: { level: 'old' },
        revision: 'B',
      });
      expect((await graph.findNode({ label: 'Profile', key: 'p' }))?.properties).toEqual({
        level: 'new',
      });
    });

    it('creates missing edge endpoints empty and lists neighbours both ways, by type', async () => {
      const graph = await open();
      await graph.upsertNode({ ...handoff, properties: { status: 'offered' } });
      await graph.upsertEdge({
        type: 'TO_AGENT',
        from: handoff,
        to: { label: 'Agent', key: 'po' },
      });
      await graph.upsertEdge({
        type: 'FROM_AGENT',
        from: handoff,
        to: { label: 'Agent', key: 'criativo' },
      });
      await graph.upsertEdge({
        type: 'HAS_HANDOFF',
        from: { label: 'Session', key: 's1' },
        to: handoff,
        properties: { seq: 4 },
      });
      expect(await graph.findNode({ label: 'Agent', key: 'po' })).toEqual({
        label: 'Agent',
        key: 'po',
        properties: {},
      });
      const out = await graph.neighbours(handoff, { direction: 'out' });
      expect(out.map((neighbour) => [neighbour.edge.type, neighbour.node.key])).toEqual([
        ['FROM_AGENT', 'criativo'],
        ['TO_AGENT', 'po'],
      ]);
      expect(await graph.neighbours(handoff, { direction: 'out', type: 'TO_AGENT' })).toHaveLength(
        1,
      );
      const incoming = await graph.neighbours(handoff, { direction: 'in' });
      expect(incoming).toEqual([
        {
          edge: {
            type: 'HAS_HANDOFF',
            from: { label: 'Session', key: 's1' },
            to: handoff,
            properties: { seq: 4 },
          },
          node: { label: 'Session', key: 's1', properties: {} },
        },
      ]);
    });

    it('finds nodes of a label by contained properties, ordered by key', async () => {
      const graph = await open();
      await graph.upsertNode({
        label: 'Hypothesis',
        key: 'b',
        properties: { project_id: 'p1', status: 'proposed' },
      });
      await graph.upsertNode({
        label: 'Hypothesis',
        key: 'a',
        properties: { project_id: 'p1', status: 'accepted' },
      });
      await graph.upsertNode({ label: 'Hypothesis', key: 'c', properties: { project_id: 'p2' } });
      await graph.upsertNode({ label: 'Handoff', key: 'd', properties: { project_id: 'p1' } });
      expect(
        (await graph.findNodes('Hypothesis', { project_id: 'p1' })).map((node) => node.key),
      ).toEqual(['a', 'b']);
      expect(
        (await graph.findNodes('Hypothesis', { project_id: 'p1', status: 'accepted' })).map(
          (node) => node.key,
        ),
      ).toEqual(['a']);
      expect((await graph.findNodes('Hypothesis')).map((node) => node.key)).toEqual([
        'a',
        'b',
        'c',
      ]);
    });

    it('clears every node and edge except the labels kept', async () => {
      const graph = await open();
      await graph.upsertNode({
        label: 'PromptTemplate',
        key: 'psicologo-kickoff@1',
        properties: { body: 'x' },
      });
      await graph.upsertEdge({
        type: 'TO_AGENT',
        from: handoff,
        to: { label: 'Agent', key: 'po' },
      });
      await graph.clear({ keepLabels: ['PromptTemplate'] });
      expect(await graph.snapshot()).toEqual({
        nodes: [
          {
            label: 'PromptTemplate',
            key: 'psicologo-kickoff@1',
            properties: { body: 'x' },
            revision: '',
          },
        ],
        edges: [],
      });
      await graph.clear();
      expect(await graph.snapshot()).toEqual({ nodes: [], edges: [] });
    });

    it('snapshots in a stable order and can leave labels out', async () => {
      const graph = await open();
      await graph.upsertEdge({
        type: 'B',
        from: { label: 'Zeta', key: '2' },
        to: { label: 'Alpha', key: '1' },
      });
      await graph.upsertEdge({
        type: 'A',
        from: { label: 'Zeta', key: '2' },
        to: { label: 'Alpha', key: '0' },
      });
      await graph.upsertNode({ label: 'PromptTemplate', key: 't@1', properties: {} });
      const snapshot = await graph.snapshot({ excludeLabels: ['PromptTemplate'] });
      expect(snapshot.nodes.map((node) => `${node.label}:${node.key}`)).toEqual([
        'Alpha:0',
        'Alpha:1',
        'Zeta:2',
      ]);
      expect(snapshot.edges.map((edge) => edge.type)).toEqual(['A', 'B']);
    });

    it('keeps properties of every JSON type and unicode keys', async () => {
      const graph = await open();
      const properties = {
        text: 'ação ✓ 🚀',
        count: 3,
        ratio: 0.5,
        flag: false,
        none: null,
        list: [1, 'a'],
        nested: { deep: true },
      };
      await graph.upsertNode({ label: 'Event', key: 'sessão#1', properties });
      expect((await graph.findNode({ label: 'Event', key: 'sessão#1' }))?.properties).toEqual(
        properties,
      );
    });
  });
}
