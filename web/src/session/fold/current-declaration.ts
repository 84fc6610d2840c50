import type { Declaration } from './session-view.ts';

/** The current declaration of a versioned artifact: the highest `version`, ties broken by the later seq (record ADR 0200). */
export function currentDeclaration<Data>(
  declarations: readonly Declaration<Data>[],
): Declaration<Data> | null {
  let current: Declaration<Data> | null = null;
  for (const declaration of declarations) {
    if (
      current === null ||
      declaration.version > current.version ||
      (declaration.version === current.version && declaration.seq >= current.seq)
    ) {
      current = declaration;
    }
  }
  return current;
}

/** Declarations newest first, the order a version picker lists them in. */
export function declarationsNewestFirst<Data>(
  declarations: readonly Declaration<Data>[],
): Declaration<Data>[] {
  return [...declarations].sort((a, b) => b.version - a.version || b.seq - a.seq);
}
