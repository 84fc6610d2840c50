import type { Migration } from './migration.ts';

/**
 * The relational memory (record ADR 0101) as a property graph in its own schema: nodes and edges with labels,
 * natural keys and jsonb properties. The graph is a projection of the event log (and of the template
 * seeder): nothing here is a primary record, so `forja graph rebuild` can empty it and replay.
 *
 * `revision` orders writes to one node: a write whose revision is at least the stored one wins the
 * properties it names; an older write only fills in properties the node does not have yet. Revisions are
 * compared byte-wise (`collate "C"`), so replaying in any order gives the same node.
 */
export const graph: Migration = {
  version: 4,
  name: 'graph',
  sql: `
    create schema graph;

    create table graph.nodes (
      label text not null check (label ~ '^[A-Z][A-Za-z]*$'),
      key text not null check (key <> ''),
      properties jsonb not null default '{}'::jsonb check (jsonb_typeof(properties) = 'object'),
      revision text collate "C" not null default '',
      primary key (label, key)
    );
    create index graph_nodes_by_properties on graph.nodes using gin (properties jsonb_path_ops);

    create table graph.edges (
      type text not null check (type ~ '^[A-Z][A-Z_]*$'),
      from_label text not null,
      from_key text not null,
      to_label text not null,
      to_key text not null,
      properties jsonb not null default '{}'::jsonb check (jsonb_typeof(properties) = 'object'),
      primary key (from_label, from_key, type, to_label, to_key),
      foreign key (from_label, from_key) references graph.nodes (label, key) on delete cascade,
      foreign key (to_label, to_key) references graph.nodes (label, key) on delete cascade
    );
    create index graph_edges_incoming on graph.edges (to_label, to_key, type);
  `,
};
