import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { trustedStampOf, type FreshnessBasis } from './instruction-freshness.ts';
import type { InstructionSkip, InstructionSource } from './instruction-sources.ts';
import { listGitFiles } from './list-git-files.ts';
import {
  INSTRUCTION_FILE_NAMES,
  compareInstructionPaths,
  governedDirectory,
  orderInstructionPaths,
} from './order-instruction-paths.ts';
import { readInstructionFile, type InstructionFileRead } from './read-instruction-file.ts';
import { walkWorkspace } from './walk-workspace.ts';

/** Instruction files larger than this are skipped (`too_large`): the whole layer's default budget is ~16 KiB. */
export const DEFAULT_MAX_INSTRUCTION_FILE_BYTES = 1024 * 1024;

/**
 * How a project marks an instruction file global, so that every agent reads it wherever it works: this
 * HTML comment (invisible when the Markdown is rendered) on the file's first non-blank line. The root file
 * is always global.
 */
export const GLOBAL_INSTRUCTION_MARKER = '<!-- forja:global -->';
const GLOBAL_MARKER_PATTERN = /^\s*<!--\s*forja:global\s*-->/i;

/** How the files were found: git's own listing, or the walker outside git. */
export type DiscoveryMethod = 'git' | 'walk';

/** The workspace's instruction files in ascending priority, and what was left out and why. */
export interface DiscoveredInstructionFiles {
  readonly sources: readonly InstructionSource[];
  readonly skipped: readonly InstructionSkip[];
  readonly method?: DiscoveryMethod;
  /** What the discovery saw, for the loader's freshness check; absent means "until invalidated". */
  readonly freshness?: FreshnessBasis;
}

export interface DiscoveryOptions {
  readonly maxFileBytes?: number;
  /** `auto` (default): git's listing where the workspace is in a git work tree, the walker elsewhere. */
  readonly method?: DiscoveryMethod | 'auto';
}

type Candidate = { readonly relative: string } & (
  | { readonly read: InstructionFileRead }
  | { readonly skip: InstructionSkip }
);

// One file per directory: the first usable one in INSTRUCTION_FILE_NAMES order; those after it are shadowed.
function chooseInDirectory(candidates: readonly Candidate[], skipped: InstructionSkip[]) {
  let chosen: (Candidate & { read: InstructionFileRead }) | null = null;
  for (const candidate of candidates) {
    if (chosen !== null)
      skipped.push({ path: candidate.relative, reason: 'shadowed', detail: chosen.relative });
    else if ('read' in candidate) chosen = candidate;
    else skipped.push(candidate.skip);
  }
  return chosen;
}

function nameRank(relative: string): number {
  return (INSTRUCTION_FILE_NAMES as readonly string[]).indexOf(
    relative.slice(relative.lastIndexOf('/') + 1),
  );
}

function ancestorDirectories(files: readonly string[]): Set<string> {
  const directories = new Set<string>(['']);
  for (const file of files) {
    for (
      let directory = governedDirectory(file);
      directory !== '' && !directories.has(directory);
      directory = governedDirectory(directory)
    ) {
      directories.add(directory);
    }
  }
  return directories;
}

async function listCandidates(root: string, method: DiscoveryMethod | 'auto', startedAtMs: number) {
  const stamps = new Map<string, string>();
  if (method !== 'walk') {
    const listing = await listGitFiles(root, INSTRUCTION_FILE_NAMES);
    if (listing !== null) {
      stamps.set(listing.indexPath, trustedStampOf(listing.indexPath, startedAtMs));
      // The directories that hold an instruction file, and their parents: a file added beside one of them
      // (or a directory made there) moves that directory's mtime. Others are seen through the index.
      for (const directory of ancestorDirectories(listing.found)) {
        const absolute = directory === '' ? root : path.join(root, directory);
        stamps.set(absolute, trustedStampOf(absolute, startedAtMs));
      }
      return { method: 'git' as const, found: listing.found, skipped: [], stamps };
    }
    if (method === 'git')
      throw new Error(`${root}: not inside a git work tree (or git cannot run)`);
  }
  const walk = await walkWorkspace(root, INSTRUCTION_FILE_NAMES);
  for (const directory of walk.directories) {
    const absolute = directory === '' ? root : path.join(root, directory);
    stamps.set(absolute, trustedStampOf(absolute, startedAtMs));
  }
  return { method: 'walk' as const, found: walk.found, skipped: walk.skipped, stamps };
}

/**
 * Finds the instruction files under `workspaceDir` and reads them. Where the workspace is in a git work
 * tree the set is git's (`git ls-files -co --exclude-standard`: tracked files, also inside ignored
 * directories, and untracked ones not ignored); elsewhere the walker applies the `.gitignore` files. Per
 * directory one file: `AGENTS.override.md`, else `AGENTS.md`, else `CLAUDE.md`. A file reached twice
 * (a symbolic link to another) is read once, under its own path. Sources come in ascending priority: the
 * root file, then shallower before deeper, ties in byte order; skips are sorted the same way. No file
 * makes it throw; a missing or unreadable workspace directory does.
 */
export async function discoverInstructionFiles(
  workspaceDir: string,
  options: DiscoveryOptions = {},
): Promise<DiscoveredInstructionFiles> {
  const root = path.resolve(workspaceDir);
  const rootRealPath = await realpath(root);
  const startedAtMs = Date.now();
  const listed = await listCandidates(root, options.method ?? 'auto', startedAtMs);
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_INSTRUCTION_FILE_BYTES;
  const ordered = orderInstructionPaths(listed.found);
  const candidates: Candidate[] = ordered.map((relative) => {
    const outcome = readInstructionFile(root, rootRealPath, relative, maxBytes);
    // Stamped from the stat taken before the read, so an edit during the read shows on the next check.
    listed.stamps.set(
      path.join(root, relative),
      trustedStampOf(path.join(root, relative), startedAtMs, outcome.stat),
    );
    return { relative, ...('read' in outcome ? { read: outcome.read } : { skip: outcome.skip }) };
  });
  const byDirectory = new Map<string, Candidate[]>();
  for (const candidate of candidates) {
    const directory = governedDirectory(candidate.relative);
    byDirectory.set(directory, [...(byDirectory.get(directory) ?? []), candidate]);
  }
  const skipped: InstructionSkip[] = [...listed.skipped];
  const chosen = [...byDirectory.values()].flatMap((group) => {
    const one = chooseInDirectory(
      [...group].sort((left, right) => nameRank(left.relative) - nameRank(right.relative)),
      skipped,
    );
    return one === null ? [] : [one];
  });
  chosen.sort((left, right) => compareInstructionPaths(left.relative, right.relative));
  // A file reached through a link and under its own path is read once: under its own path when listed,
  // otherwise under the first path in priority order.
  const keptByRealPath = new Map<string, string>();
  for (const candidate of chosen) {
    if (candidate.read.realPath === path.join(rootRealPath, candidate.relative))
      keptByRealPath.set(candidate.read.realPath, candidate.relative);
  }
  const sources: InstructionSource[] = [];
  for (const candidate of chosen) {
    const kept = keptByRealPath.get(candidate.read.realPath);
    if (kept !== undefined && kept !== candidate.relative) {
      skipped.push({ path: candidate.relative, reason: 'duplicate', detail: kept });
      continue;
    }
    keptByRealPath.set(candidate.read.realPath, candidate.relative);
    const directory = governedDirectory(candidate.relative);
    sources.push({
      id: candidate.relative,
      content: candidate.read.content,
      priority_kind: directory === '' ? 'root' : 'dir',
      directory,
      global: directory === '' || GLOBAL_MARKER_PATTERN.test(candidate.read.content),
    });
  }
  skipped.sort((left, right) => compareInstructionPaths(left.path, right.path));
  const freshness: FreshnessBasis = {
    workspaceDir: root,
    startedAtMs,
    stamps: listed.stamps,
    listed: new Set(listed.found),
  };
  return { sources, skipped, method: listed.method, freshness };
}
