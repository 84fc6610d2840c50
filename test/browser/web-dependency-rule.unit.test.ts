import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript-5';
import { describe, expect, it } from 'vitest';

const WEB_SOURCES = fileURLToPath(new URL('../../web/src', import.meta.url));
/** The browser UI is built from React (and Markdown for it, decision 0120); everything about Forja it learns from /api. */
const ALLOWED_PACKAGES = new Set([
  'react',
  'react-dom',
  'react-dom/client',
  'react-markdown',
  'remark-gfm',
]);
/** The one server module the web imports: the shared contract (ADR 0400), pure, bundled into the page. */
const CONTRACT = fileURLToPath(new URL('../../src/domain/contract/index.ts', import.meta.url));
/** What the contract may reach: zod, and nothing with I/O (no `node:` module, no other package). */
const CONTRACT_PACKAGES = new Set(['zod']);

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

/** Specifiers of import and export statements, as the TypeScript compiler reads them. */
const moduleImportsOf = (path: string) =>
  ts
    .preProcessFile(readFileSync(path, 'utf8'), true, false)
    .importedFiles.map((file) => file.fileName);

/** The files reachable from `entry` by relative imports, and the packages they import. */
function reach(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (path: string) => {
    if (files.has(path)) return;
    files.add(path);
    for (const specifier of moduleImportsOf(path))
      if (specifier.startsWith('.')) visit(resolve(path, '..', specifier));
      else packages.add(specifier);
  };
  visit(entry);
  return { files: [...files], packages: [...packages] };
}

/** `web/` talks to the API only (docs/architecture.md); it never imports the server's code but the contract. */
describe('dependency rule: the web UI reaches Forja only through the API and the shared contract', () => {
  const files = sourceFiles(WEB_SOURCES);

  it('finds the web sources it guards, and their imports', () => {
    expect(files.length).toBeGreaterThan(20);
    expect(files.flatMap(importsOf)).toEqual(
      expect.arrayContaining(['react', 'react-dom/client', './App.tsx', './styles.css']),
    );
  });

  it.each(files.map((path) => [relative(WEB_SOURCES, path), path]))(
    '%s imports only web code, React and the shared contract',
    (_name, path) => {
      const offending = importsOf(path).filter((specifier) => {
        if (!specifier.startsWith('.')) return !ALLOWED_PACKAGES.has(specifier);
        const target = resolve(path, '..', specifier);
        return relative(WEB_SOURCES, target).startsWith('..') && target !== CONTRACT;
      });
      expect(offending).toEqual([]);
    },
  );

  it('the shared contract reaches only pure domain code and zod, so the page can bundle it', () => {
    const { files: reached, packages } = reach(CONTRACT);
    expect(reached.length).toBeGreaterThan(5);
    const domain = fileURLToPath(new URL('../../src/domain/', import.meta.url));
    expect(reached.filter((path) => !path.startsWith(domain))).toEqual([]);
    expect(packages.filter((name) => !CONTRACT_PACKAGES.has(name))).toEqual([]);
    expect(packages).toContain('zod');
  });
});
