import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { openFinal, visitFilesBeneath, walkBeneath } from './beneath.ts';

export const MAX_SEARCH_MATCHES = 100;
const MAX_SEARCHED_FILE_BYTES = 1024 * 1024;
const MAX_LINE_CHARACTERS = 240;

export type WorktreeSearch = { ok: true; text: string } | { ok: false; reason: string };

/**
 * Finds `query` (plain text, case-insensitive) in file names and lines of the worktree, under `path`. Goes
 * down through descriptors (each entry opened inside its directory with O_NOFOLLOW), never follows a
 * symbolic link, never enters `.git`, skips files with more than one hard link.
 */
export async function searchWorktree(
  worktree: string,
  query: string,
  path = '.',
): Promise<WorktreeSearch> {
  const walk = await walkBeneath(worktree, path, { create: false });
  if (!walk.ok) return walk;
  const needle = query.toLowerCase();
  const matches: string[] = [];
  let more = false;
  const push = (line: string) => {
    if (matches.length < MAX_SEARCH_MATCHES) matches.push(line);
    else more = true;
  };
  const searchFile = async (handle: FileHandle, shown: string) => {
    const info = await handle.stat();
    if (!info.isFile() || info.nlink !== 1) return;
    if (shown.toLowerCase().includes(needle)) push(`${shown} (file name)`);
    if (info.size > MAX_SEARCHED_FILE_BYTES) return;
    const content = await handle.readFile();
    if (content.includes(0)) return;
    content
      .toString('utf8')
      .split('\n')
      .forEach((line, index) => {
        if (line.toLowerCase().includes(needle))
          push(`${shown}:${index + 1}: ${line.trim().slice(0, MAX_LINE_CHARACTERS)}`);
      });
  };
  try {
    const opened = await openFinal(walk, constants.O_RDONLY, { directory: true });
    if (!opened.ok) return opened;
    try {
      if ((await opened.handle.stat()).isDirectory())
        await visitFilesBeneath(opened.handle, walk.relativePath, async (handle, shown) => {
          await searchFile(handle, shown);
          return more;
        });
      else await searchFile(opened.handle, walk.relativePath);
    } finally {
      await opened.handle.close();
    }
  } finally {
    await walk.close();
  }
  if (matches.length === 0)
    return { ok: true, text: `No match for ${JSON.stringify(query)} under ${walk.relativePath}.` };
  const cut = more
    ? `\n[… more than ${MAX_SEARCH_MATCHES} matches; search a narrower path or text …]`
    : '';
  return { ok: true, text: `${matches.join('\n')}${cut}` };
}
