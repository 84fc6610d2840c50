import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const WEB_SOURCES = fileURLToPath(new URL('../../web/src', import.meta.url));
/** The browser UI is built from React (and Markdown for it, decision 0120); everything about Forja it learns from /api. */
const ALLOWED_PACKAGES = new Set(['react', 'react-dom/client', 'react-markdown', 'remark-gfm']);

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Specifiers of `import … from '…'`, `export … from '…'` (over several lines too) and `import '…'`. */
const importsOf = (path: string) =>
  [
    ...readFileSync(path, 'utf8').matchAll(
      /\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm,
    ),
  ].map((match) => (match[1] ?? match[2])!);

/** `web/` talks to the API only (docs/architecture.md); it never imports the server's code. */
describe('dependency rule: the web UI reaches Forja only through the API', () => {
  const files = sourceFiles(WEB_SOURCES);

  it('finds the web sources it guards, and their imports', () => {
    expect(files.length).toBeGreaterThan(20);
    expect(files.flatMap(importsOf)).toEqual(
      expect.arrayContaining(['react', 'react-dom/client', './App.tsx', './styles.css']),
    );
  });

  it.each(files.map((path) => [relative(WEB_SOURCES, path), path]))(
    '%s imports only web code and React',
    (_name, path) => {
      const offending = importsOf(path).filter((specifier) =>
        specifier.startsWith('.')
          ? relative(WEB_SOURCES, resolve(path, '..', specifier)).startsWith('..')
          : !ALLOWED_PACKAGES.has(specifier),
      );
      expect(offending).toEqual([]);
    },
  );
});
