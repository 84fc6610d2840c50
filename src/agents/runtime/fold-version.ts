import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * Where the fold's code starts: the domain's fold, the view that holds it, and the snapshot's format. Every
 * module these import at run time (relative imports, followed transitively; `import type` changes nothing at
 * run time and is not followed) is part of the fold's version.
 */
export const FOLD_ENTRIES: readonly URL[] = [
  new URL('../../domain/conversation/rehydrate.ts', import.meta.url),
  new URL('./session-view.ts', import.meta.url),
  new URL('./session-view-snapshot.ts', import.meta.url),
];

let computed: string | undefined;

/**
 * The version of the fold a snapshot of a view is written by and read with (ADR 0426): a fingerprint of the
 * fold's source, so a change to any module the fold runs makes every older snapshot unread, with nobody to
 * remember a number to bump. Read once per process.
 */
export function foldVersion(): string {
  computed ??= sourceFingerprint(FOLD_ENTRIES);
  return computed;
}

/** A hash of the modules `entries` run, each named by its path relative to the first entry's folder's root. */
export function sourceFingerprint(
  entries: readonly URL[],
  read: (file: URL) => string = (file) => readFileSync(file, 'utf8'),
): string {
  const sources = new Map<string, string>();
  const pending = [...entries];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (sources.has(file.href)) continue;
    const text = read(file);
    sources.set(file.href, text);
    for (const specifier of runtimeImports(text)) pending.push(new URL(specifier, file));
  }
  const root = new URL('../../', entries[0]!).href;
  const hash = createHash('sha256');
  for (const href of [...sources.keys()].sort()) {
    hash.update(
      `${href.startsWith(root) ? href.slice(root.length) : href}\0${sources.get(href)}\0`,
    );
  }
  return hash.digest('hex').slice(0, 32);
}

/** Relative specifiers of a module's run-time imports and re-exports (not `import type`/`export type`). */
function runtimeImports(text: string): string[] {
  const found: string[] = [];
  const statement = /^\s*(?:import|export)\s+(type\s+)?(?:[^;'"]*?\sfrom\s+)?'(\.{1,2}\/[^']+)'/gm;
  for (const match of text.matchAll(statement)) if (match[1] === undefined) found.push(match[2]!);
  return found;
}
