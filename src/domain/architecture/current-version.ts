/** A recorded declaration of a versioned artifact: its event seq and its payload's `version`. */
export type VersionedDeclaration = {
  readonly seq: number;
  readonly payload: { readonly version: number };
};

/**
 * The current declaration of a versioned artifact: the highest payload `version`, ties broken by event seq
 * (the later event wins) — record ADR 0200, the same resolution as the other Arquiteto artifacts. The winner is
 * returned whole: each declaration carries the entire list and replaces the previous one, never merged.
 * The result depends only on the set of declarations, not on their order (seqs are unique in the log;
 * should two entries share version and seq, the one later in the array wins).
 */
export function currentVersion<Declaration extends VersionedDeclaration>(
  declarations: readonly Declaration[],
): Declaration | null {
  let current: Declaration | null = null;
  for (const declaration of declarations) {
    if (current === null || isNewer(declaration, current)) current = declaration;
  }
  return current;
}

function isNewer(candidate: VersionedDeclaration, current: VersionedDeclaration): boolean {
  if (candidate.payload.version !== current.payload.version)
    return candidate.payload.version > current.payload.version;
  return candidate.seq >= current.seq;
}
