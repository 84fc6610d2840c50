import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The dependency rule of the pure harness: the assembler, the tokenizers, hooks and the report
 * formatter reach no I/O, directly or through the files they import, and use no clock or randomness.
 */
const PURE_ENTRY_POINTS = [
  'assemble-prompt.ts',
  'tokenizer-from-name.ts',
  'hooks.ts',
  'format-assembly-report.ts',
];
// Bare specifiers a pure file may import: none of them does I/O.
const ALLOWED_PACKAGES = [/^node:buffer$/, /^gpt-tokenizer\/encoding\/[a-z0-9_]+$/, /^zod$/];
const NONDETERMINISTIC = [
  /\bDate\b/,
  /\bMath\.random\b/,
  /\bprocess\b/,
  /\bperformance\b/,
  /\bfetch\(/,
  /\brequire\(/,
];

function withoutComments(source: string): string {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '')
    .replace(/\s\/\/.*$/gm, '');
}

/** Every module specifier in a source file: static imports and re-exports, side-effect and dynamic imports. */
function specifiersOf(source: string): string[] {
  const code = withoutComments(source);
  const patterns = [
    /\bfrom\s+['"]([^'"]+)['"]/g,
    /\bimport\s+['"]([^'"]+)['"]/g,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  return patterns.flatMap((pattern) => [...code.matchAll(pattern)].map((match) => match[1] ?? ''));
}

async function reachableFiles(entries: readonly string[]): Promise<Map<string, string>> {
  const directory = import.meta.dirname;
  const sources = new Map<string, string>();
  const pending = [...entries];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (sources.has(file)) continue;
    const source = await readFile(path.join(directory, file), 'utf8');
    sources.set(file, source);
    for (const specifier of specifiersOf(source)) {
      if (specifier.startsWith('./')) pending.push(path.posix.normalize(specifier));
    }
  }
  return sources;
}

describe('harness dependency rule', () => {
  it('finds every kind of import (so the rule below can fail)', () => {
    const sample = `import a from 'node:fs';\nexport { b } from "pg";\nimport 'node:net';\nawait import('node:child_process');\n// import x from 'commented-out';`;
    expect(specifiersOf(sample)).toEqual(['node:fs', 'pg', 'node:net', 'node:child_process']);
  });

  it('keeps the pure harness free of I/O imports, transitively', async () => {
    const sources = await reachableFiles(PURE_ENTRY_POINTS);
    expect(sources.size).toBeGreaterThan(PURE_ENTRY_POINTS.length);
    const forbidden = [...sources].flatMap(([file, source]) =>
      specifiersOf(source)
        .filter((specifier) => !specifier.startsWith('./'))
        .filter((specifier) => !ALLOWED_PACKAGES.some((allowed) => allowed.test(specifier)))
        .map((specifier) => `${file} imports ${specifier}`),
    );
    expect(forbidden).toEqual([]);
  });

  it('keeps the pure harness free of clocks, randomness and process state', async () => {
    const sources = await reachableFiles(PURE_ENTRY_POINTS);
    const found = [...sources].flatMap(([file, source]) =>
      NONDETERMINISTIC.filter((pattern) => pattern.test(withoutComments(source))).map(
        (pattern) => `${file}: ${pattern}`,
      ),
    );
    expect(found).toEqual([]);
  });
});
