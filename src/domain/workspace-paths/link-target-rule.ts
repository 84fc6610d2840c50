/** The part of a repository Forja writes (the Arquiteto's artifacts): a dev's commit never changes it. */
export const FORJA_OWNED_DIRECTORY = 'docs';

/**
 * Why a symbolic link a dev commits at `linkPath` (relative to the repository root, `/`-separated) with
 * `target` may lead out of the repository, or null when it cannot. A target is accepted only when it is
 * relative, has no backslash or NUL, and its `..` segments all come first and climb no higher than the
 * link's own directory's ancestors inside the repository: those directories are real ones (git never stores
 * a path through a link), and a `..` after a name could climb out of whatever that name links to.
 */
export function linkTargetEscape(linkPath: string, target: string): string | null {
  if (target === '') return 'its target is empty';
  if (target.startsWith('/')) return `its target ${JSON.stringify(target)} is an absolute path`;
  if (target.includes('\\') || target.includes('\0'))
    return `its target ${JSON.stringify(target)} has a backslash or a NUL byte`;
  const segments = target.split('/').filter((segment) => segment !== '' && segment !== '.');
  const climbs = segments.findIndex((segment) => segment !== '..');
  const leading = climbs === -1 ? segments.length : climbs;
  if (segments.slice(leading).includes('..'))
    return `its target ${JSON.stringify(target)} has ".." after a name, which could climb out through another link`;
  const depth = linkPath.split('/').filter((segment) => segment !== '').length - 1;
  if (leading > depth)
    return `its target ${JSON.stringify(target)} climbs ${leading} directories from ${linkPath}, above the repository's root`;
  return null;
}

/** Whether a dev's commit changes `path`, which Forja owns (`docs/`). */
export function isForjaOwnedPath(path: string): boolean {
  return path === FORJA_OWNED_DIRECTORY || path.startsWith(`${FORJA_OWNED_DIRECTORY}/`);
}
