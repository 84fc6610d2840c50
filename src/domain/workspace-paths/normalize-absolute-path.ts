/**
 * Lexically normalizes an absolute POSIX path: collapses `//` and `.`, applies `..` (which stops at `/`, as
 * the kernel does), drops a trailing `/`. Pure string work — symlinks are the I/O layer's business.
 * Returns null for a path that is not absolute.
 */
export function normalizeAbsolutePath(path: string): string | null {
  if (!path.startsWith('/')) return null;
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join('/')}`;
}
