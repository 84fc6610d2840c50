import type { GraphProperties } from './graph-store.ts';

/** A node as stored: its properties and the revision of the newest write that touched it. */
export interface StoredNodeState {
  readonly properties: GraphProperties;
  readonly revision: string;
}

/**
 * The upsert rule of `GraphStore.upsertNode`, as a pure function (the Postgres adapter does the same in SQL):
 * a write without revision, or with one ≥ the stored revision, wins the properties it names; an older write
 * only fills in properties the node lacks. Revisions compare byte-wise, as `collate "C"` does.
 */
export function mergeNodeWrite(
  stored: StoredNodeState | null,
  write: { properties: GraphProperties; revision?: string },
): StoredNodeState {
  if (stored === null)
    return { properties: { ...write.properties }, revision: write.revision ?? '' };
  if (write.revision === undefined)
    return { properties: { ...stored.properties, ...write.properties }, revision: stored.revision };
  if (compareBytewise(write.revision, stored.revision) >= 0)
    return { properties: { ...stored.properties, ...write.properties }, revision: write.revision };
  return { properties: { ...write.properties, ...stored.properties }, revision: stored.revision };
}

/** Orders strings by their UTF-8 bytes, as PostgreSQL's "C" collation does. */
export function compareBytewise(left: string, right: string): number {
  return Buffer.compare(Buffer.from(left, 'utf8'), Buffer.from(right, 'utf8'));
}
