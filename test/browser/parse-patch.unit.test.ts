import { describe, expect, it } from 'vitest';
import { parsePatch } from '../../web/src/production/parse-patch.ts';

const PATCH = [
  'diff --git a/src/catalogo.ts b/src/catalogo.ts',
  'index 1111111..2222222 100644',
  '--- a/src/catalogo.ts',
  '+++ b/src/catalogo.ts',
  '@@ -1,2 +1,3 @@ export',
  ' const a = 1;',
  '-export const itens = [];',
  "+export const itens = ['pão'];",
  '+export const total = 1;',
  '\\ No newline at end of file',
  'diff --git a/README.md b/README.md',
  'deleted file mode 100644',
  '--- a/README.md',
  '+++ /dev/null',
  '@@ -1 +0,0 @@',
  '-# Loja',
  'diff --git a/old.ts b/new.ts',
  'similarity index 90%',
  'rename from old.ts',
  'rename to new.ts',
  'diff --git a/logo.bin b/logo.bin',
  'new file mode 100644',
  'Binary files /dev/null and b/logo.bin differ',
  '',
].join('\n');

describe('parsePatch', () => {
  it('splits a unified diff into files with their status, +/- counts and numbered lines', () => {
    const files = parsePatch(PATCH);
    expect(
      files.map(({ path, oldPath, status, binary, additions, deletions }) => ({
        path,
        oldPath,
        status,
        binary,
        additions,
        deletions,
      })),
    ).toEqual([
      {
        path: 'src/catalogo.ts',
        oldPath: null,
        status: 'modified',
        binary: false,
        additions: 2,
        deletions: 1,
      },
      {
        path: 'README.md',
        oldPath: null,
        status: 'deleted',
        binary: false,
        additions: 0,
        deletions: 1,
      },
      {
        path: 'new.ts',
        oldPath: 'old.ts',
        status: 'renamed',
        binary: false,
        additions: 0,
        deletions: 0,
      },
      {
        path: 'logo.bin',
        oldPath: null,
        status: 'added',
        binary: true,
        additions: 0,
        deletions: 0,
      },
    ]);
    expect(files[0]!.lines).toEqual([
      { kind: 'hunk', text: '@@ -1,2 +1,3 @@ export', oldNumber: null, newNumber: null },
      { kind: 'context', text: 'const a = 1;', oldNumber: 1, newNumber: 1 },
      { kind: 'removed', text: 'export const itens = [];', oldNumber: 2, newNumber: null },
      { kind: 'added', text: "export const itens = ['pão'];", oldNumber: null, newNumber: 2 },
      { kind: 'added', text: 'export const total = 1;', oldNumber: null, newNumber: 3 },
      { kind: 'note', text: 'No newline at end of file', oldNumber: null, newNumber: null },
    ]);
  });

  it('reads an empty or foreign text as no files', () => {
    expect(parsePatch('')).toEqual([]);
    expect(parsePatch('hello\n+x\n')).toEqual([]);
  });
});
