import type { Dirent } from 'node:fs';
import { readFile, readdir, realpath, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { confinePath } from './confine-path.ts';

export const MAX_SEARCH_MATCHES = 100;
const MAX_SEARCHED_FILE_BYTES = 1024 * 1024;
const MAX_LINE_CHARACTERS = 240;

export type WorktreeSearch = { ok: true; text: string } | { ok: false; reason: string };

/**
 * Finds `query` (plain text, case-insensitive) in file names and lines of the worktree, under `path`.
 * Never follows a symbolic link and never enters `.git`, so the search stays inside the worktree.
 */
export async function searchWorktree(worktree: string, query: string, path = '.'): Promise<WorktreeSearch> {
  const confined = await confinePath(worktree, path);
  if (!confined.ok) return confined;
  if (!confined.exists) return { ok: false, reason: `${confined.relativePath} does not exist in your worktree` };
  const root = await realpath(worktree);
  const needle = query.toLowerCase();
  const matches: string[] = [];
  let more = false;
  const visit = async (absolute: string, entry: Dirent | null): Promise<void> => {
    if (more) return;
    const isDirectory = entry === null ? (await stat(absolute)).isDirectory() : entry.isDirectory();
    const shown = relative(root, absolute) || '.';
    if (isDirectory) {
      const children = (await readdir(absolute, { withFileTypes: true })).filter((child) => child.name !== '.git' && !child.isSymbolicLink());
      for (const child of children.sort((left, right) => (left.name < right.name ? -1 : 1))) await visit(join(absolute, child.name), child);
      return;
    }
    if (entry !== null && !entry.isFile()) return;
    if (shown.toLowerCase().includes(needle)) push(`${shown} (file name)`);
    const info = await stat(absolute);
    if (info.size > MAX_SEARCHED_FILE_BYTES) return;
    const content = await readFile(absolute);
    if (content.includes(0)) return;
    content.toString('utf8').split('\n').forEach((line, index) => {
      if (line.toLowerCase().includes(needle)) push(`${shown}:${index + 1}: ${line.trim().slice(0, MAX_LINE_CHARACTERS)}`);
    });
  };
  const push = (line: string) => {
    if (matches.length < MAX_SEARCH_MATCHES) matches.push(line);
    else more = true;
  };
  await visit(confined.realPath, null);
  if (matches.length === 0) return { ok: true, text: `No match for ${JSON.stringify(query)} under ${confined.relativePath}.` };
  const cut = more ? `\n[… more than ${MAX_SEARCH_MATCHES} matches; search a narrower path or text …]` : '';
  return { ok: true, text: `${matches.join('\n')}${cut}` };
}
