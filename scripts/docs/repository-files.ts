import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { RepositoryView } from './check-docs.ts';
import { DECISION_FILE, type ParsedRecord, parseDecisionRecord } from './decision-records.ts';
import { anchorsOf } from './markdown-text.ts';

/**
 * Directories that are not the project's own text: dependencies, builds, results, and every hidden one (version
 * control, a local `.forja` data directory whose project workspaces hold the line's own docs).
 */
const SKIPPED = new Set(['node_modules', 'dist', 'test-results', 'results', 'coverage']);
const skipped = (name: string) => SKIPPED.has(name) || name.startsWith('.');

/** Every file under `directory` (relative to `root`, with `/`) whose name ends in one of `extensions`. */
export function filesUnder(
  root: string,
  directory: string,
  extensions: readonly string[],
): string[] {
  const found: string[] = [];
  const walk = (relative: string) => {
    const absolute = path.join(root, relative);
    if (!existsSync(absolute)) return;
    for (const entry of readdirSync(absolute, { withFileTypes: true })) {
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory() && !skipped(entry.name)) walk(child);
      else if (entry.isFile() && extensions.some((extension) => entry.name.endsWith(extension)))
        found.push(child);
    }
  };
  walk(directory);
  return found.sort();
}

/** The repository's Markdown: README.md, docs/ and every other `.md` of the project's own folders. */
export function markdownFiles(root: string): string[] {
  return filesUnder(root, '', ['.md']);
}

/** A RepositoryView over the files on disk under `root`. */
export function repositoryView(root: string): RepositoryView {
  const anchors = new Map<string, ReadonlySet<string>>();
  const decisionNumbers = new Set(
    readdirSync(path.join(root, 'docs/decisions'))
      .map((name) => DECISION_FILE.exec(name)?.[1])
      .filter((number): number is string => number !== undefined),
  );
  return {
    exists: (relative) => existsSync(path.join(root, relative)),
    anchors: (relative) => {
      let known = anchors.get(relative);
      if (known === undefined) {
        known = anchorsOf(readFileSync(path.join(root, relative), 'utf8'));
        anchors.set(relative, known);
      }
      return known;
    },
    decisionNumbers,
  };
}

/** Every decision record of `docs/decisions/`, parsed, by file name. */
export function readDecisionRecords(root: string): Map<string, ParsedRecord> {
  const directory = path.join(root, 'docs/decisions');
  return new Map(
    readdirSync(directory)
      .filter((name) => DECISION_FILE.test(name))
      .sort()
      .map((name) => [
        name,
        parseDecisionRecord(name, readFileSync(path.join(directory, name), 'utf8')),
      ]),
  );
}
