import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readlinkSync,
  type Dirent,
  type Stats,
} from 'node:fs';
import { lstat, mkdir, open, readdir, type FileHandle } from 'node:fs/promises';
import { isInside, resolveInsideWorktree } from '../../domain/workspace-paths/index.ts';

/**
 * The kernel's name for an open directory: a path through `/proc/self/fd/<fd>` is resolved from the very
 * directory the descriptor holds, not by walking names again. Node has no `openat`; this is its `openat`.
 */
export const at = (directory: FileHandle, name?: string) =>
  name === undefined ? `/proc/self/fd/${directory.fd}` : `/proc/self/fd/${directory.fd}/${name}`;

const NO_FOLLOW = constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** An opened entry of the worktree, or why the path was refused. The caller closes the handles. */
export type Beneath =
  | {
      ok: true;
      relativePath: string;
      parent: FileHandle;
      name: string | null;
      close: () => Promise<void>;
    }
  | { ok: false; reason: string };

export type BeneathOpen = { ok: true; handle: FileHandle } | { ok: false; reason: string };

/**
 * Walks a path a dev agent asked for, inside its worktree, one name at a time: each directory is opened
 * relative to the one before with O_NOFOLLOW|O_DIRECTORY, so no name is ever followed through a symbolic
 * link and nothing can be swapped between a check and its use — there is no check apart from the open.
 * With `create`, missing directories are made (each in the directory just opened, then opened the same
 * way). The lexical rules (`resolveInsideWorktree`: no absolute path, no `..` above the root, no `.git`)
 * come first. Returns the last directory opened and the final name (null for the root itself).
 */
export async function walkBeneath(
  worktree: string,
  requestedPath: string,
  options: { create: boolean },
): Promise<Beneath> {
  const lexical = resolveInsideWorktree(worktree, requestedPath);
  if (!lexical.ok) return { ok: false, reason: lexical.reason };
  const shown = JSON.stringify(requestedPath);
  const names = lexical.relativePath === '.' ? [] : lexical.relativePath.split('/');
  const opened: FileHandle[] = [await open(worktree, constants.O_RDONLY | constants.O_DIRECTORY)];
  const close = async () => {
    for (const handle of opened.splice(0)) await handle.close().catch(() => undefined);
  };
  for (let index = 0; index < names.length - 1; index += 1) {
    const soFar = names.slice(0, index + 1).join('/');
    const next = await openDirectory(opened.at(-1)!, names[index]!, options.create);
    if (!next.ok) {
      await close();
      const why =
        {
          ELOOP: `${soFar} is a symbolic link; file tools never follow links — use the path of the file itself`,
          ENOTDIR: `${soFar} is a file, not a directory, so nothing can be inside it`,
          ENOENT: `${soFar} does not exist in your worktree`,
        }[next.code] ?? `${soFar} cannot be opened (${next.code})`;
      return { ok: false, reason: `path ${shown} refused: ${why}; nothing was read or written` };
    }
    opened.push(next.handle);
  }
  return {
    ok: true,
    relativePath: lexical.relativePath,
    parent: opened.at(-1)!,
    name: names.at(-1) ?? null,
    close,
  };
}

async function openDirectory(
  parent: FileHandle,
  name: string,
  create: boolean,
): Promise<{ ok: true; handle: FileHandle } | { ok: false; code: string }> {
  const attempt = () =>
    open(at(parent, name), constants.O_RDONLY | constants.O_DIRECTORY | NO_FOLLOW).then(
      (handle) => ({ ok: true as const, handle }),
      (error: NodeJS.ErrnoException) => ({ ok: false as const, code: error.code ?? 'EIO' }),
    );
  const first = await attempt();
  // O_DIRECTORY meets a link before O_NOFOLLOW does: the kernel says ENOTDIR; tell the two apart for the reason.
  if (
    !first.ok &&
    first.code === 'ENOTDIR' &&
    (await lstat(at(parent, name)).catch(() => null))?.isSymbolicLink()
  )
    return { ok: false, code: 'ELOOP' };
  if (first.ok || first.code !== 'ENOENT' || !create) return first;
  const made = await mkdir(at(parent, name), 0o755).then(
    () => null,
    (error: NodeJS.ErrnoException) => error.code ?? 'EIO',
  );
  if (made !== null && made !== 'EEXIST') return { ok: false, code: made };
  return attempt();
}

/**
 * Opens the final name of a walk with O_NOFOLLOW (a link is ELOOP, never followed) and O_NONBLOCK (a fifo
 * cannot hang the tool), then checks what was opened — the descriptor itself, not a name: a regular file
 * with exactly one link (a hard link could be the same file as one outside the worktree), or a directory
 * when `directory` allows it.
 */
export async function openFinal(
  walk: Extract<Beneath, { ok: true }>,
  flags: number,
  options: { directory: boolean },
): Promise<BeneathOpen> {
  const name = walk.name;
  const shown = walk.relativePath;
  if (name === null && !options.directory)
    return { ok: false, reason: 'the path names the root of your worktree, not a file' };
  // The root itself: the descriptor's own directory (its magic link is the one thing followed here).
  const path = name === null ? at(walk.parent) : at(walk.parent, name);
  const handle = await open(
    path,
    name === null ? constants.O_RDONLY | constants.O_DIRECTORY : flags | NO_FOLLOW,
    0o644,
  ).catch((error: NodeJS.ErrnoException) => error);
  if (!('fd' in handle)) {
    const why =
      {
        ELOOP: 'it is a symbolic link; file tools never follow links',
        EISDIR: 'it is a directory',
        ENOENT: 'it does not exist in your worktree',
        ENXIO: 'it is not a regular file',
      }[handle.code ?? ''] ?? handle.message;
    return { ok: false, reason: `${shown} refused: ${why}` };
  }
  const info = await handle.stat();
  const refuse = async (why: string): Promise<BeneathOpen> => {
    await handle.close();
    return { ok: false, reason: `${shown} refused: ${why}` };
  };
  if (info.isDirectory())
    return options.directory ? { ok: true, handle } : refuse('it is a directory');
  if (!info.isFile()) return refuse('it is not a regular file');
  const tooMany = (links: number) =>
    refuse(
      links === 0
        ? 'it was replaced while it was opened'
        : `it has ${links} hard links; a file with more than one link may be a file outside your worktree, so file tools do not use it`,
    );
  if (info.nlink !== 1) return tooMany(info.nlink);
  // One link, and that link is this name in this directory (looked up after the count, counted again
  // after the look-up): the file opened is the worktree's own, not one whose worktree name went away.
  const named = await lstat(at(walk.parent, name!)).catch(() => null);
  if (named === null || named.ino !== info.ino || named.dev !== info.dev)
    return refuse('it was replaced while it was opened');
  const again = await handle.stat();
  if (again.nlink !== 1) return tooMany(again.nlink);
  return { ok: true, handle };
}

/** The entries of an opened directory, read through its descriptor. */
export function readOpenedDirectory(directory: FileHandle): Promise<Dirent[]> {
  return readdir(at(directory), { withFileTypes: true });
}

/** Opens `name` inside an opened directory without following it, for a walk that goes down (the search). */
export async function openChild(
  directory: FileHandle,
  name: string,
  asDirectory: boolean,
): Promise<FileHandle | null> {
  const flags = constants.O_RDONLY | NO_FOLLOW | (asDirectory ? constants.O_DIRECTORY : 0);
  return open(at(directory, name), flags).catch(() => null);
}

/**
 * Goes down an opened directory through descriptors — each entry opened inside its directory with
 * O_NOFOLLOW (`openChild`), so no symbolic link is ever followed; `.git` is never entered — and calls
 * `onFile` with each regular file's handle and its path, in name order. `onFile` returning true ends the walk
 * (and the walk returns true). Handles are closed here.
 */
export async function visitFilesBeneath(
  directory: FileHandle,
  shown: string,
  onFile: (handle: FileHandle, shown: string) => Promise<boolean>,
): Promise<boolean> {
  const children = (await readOpenedDirectory(directory)).filter(
    (child) => child.name !== '.git' && (child.isDirectory() || child.isFile()),
  );
  for (const child of children.sort((left, right) => (left.name < right.name ? -1 : 1))) {
    const handle = await openChild(directory, child.name, child.isDirectory());
    if (handle === null) continue;
    const childShown = shown === '.' ? child.name : `${shown}/${child.name}`;
    try {
      const stop = (await handle.stat()).isDirectory()
        ? await visitFilesBeneath(handle, childShown, onFile)
        : await onFile(handle, childShown);
      if (stop) return true;
    } finally {
      await handle.close();
    }
  }
  return false;
}

/** A descriptor opened by `openInsideSync`, with its stat. The caller closes it. */
export type InsideOpen = { ok: true; fd: number; stat: Stats } | { ok: false; reason: string };

/**
 * Opens a file of a repository for reading, synchronously, for readers that open many small files at once (the
 * harness's instruction files): the final name is never followed (O_NOFOLLOW; O_NONBLOCK so a FIFO cannot
 * hang), and the descriptor is kept only when the file it holds is a regular file whose own path, read back
 * from the kernel (`/proc/self/fd/<fd>`), is inside `rootRealPath`. Whatever was swapped in on the way after
 * any earlier check, the bytes read come from a file of the repository, or nothing is read.
 */
export function openInsideSync(rootRealPath: string, absolutePath: string): InsideOpen {
  let fd: number;
  try {
    fd = openSync(absolutePath, constants.O_RDONLY | NO_FOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, reason: code === 'ELOOP' ? 'it is a symbolic link' : String(code) };
  }
  const refuse = (reason: string): InsideOpen => (closeSync(fd), { ok: false, reason });
  try {
    const opened = readlinkSync(`/proc/self/fd/${fd}`);
    if (!isInside(rootRealPath, opened)) return refuse(`it is ${opened}, outside the repository`);
    const stat = fstatSync(fd);
    if (!stat.isFile()) return refuse('it is not a regular file');
    return { ok: true, fd, stat };
  } catch (error) {
    return refuse(error instanceof Error ? error.message : String(error));
  }
}
