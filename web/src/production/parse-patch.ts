/**
 * A unified diff (`git diff-tree -p`, as `GET /api/projects/:id/commits/:sha/diff` returns it) split into
 * files and their lines, each line with its kind and its numbers in the old and the new file. Pure; any
 * text reads (a line it does not know is kept as a header line).
 */
export type PatchLineKind = 'added' | 'removed' | 'context' | 'hunk' | 'note';
export type PatchLine = {
  kind: PatchLineKind;
  text: string;
  oldNumber: number | null;
  newNumber: number | null;
};
export type PatchFile = {
  path: string;
  oldPath: string | null;
  status: 'added' | 'deleted' | 'renamed' | 'modified';
  binary: boolean;
  additions: number;
  deletions: number;
  lines: PatchLine[];
};

const FILE_HEADER = /^diff --git a\/(.*) b\/(.*)$/;
const HUNK_HEADER = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;
const RENAME_FROM = /^rename from (.*)$/;
const RENAME_TO = /^rename to (.*)$/;

export function parsePatch(patch: string): PatchFile[] {
  const files: PatchFile[] = [];
  let file: PatchFile | null = null;
  let inHunk = false;
  let oldNumber = 0;
  let newNumber = 0;
  const lines = patch.split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (const line of lines) {
    const header = FILE_HEADER.exec(line);
    if (header !== null) {
      file = {
        path: header[2]!,
        oldPath: null,
        status: 'modified',
        binary: false,
        additions: 0,
        deletions: 0,
        lines: [],
      };
      files.push(file);
      inHunk = false;
      continue;
    }
    if (file === null) continue;
    const hunk = HUNK_HEADER.exec(line);
    if (hunk !== null) {
      inHunk = true;
      oldNumber = Number(hunk[1]);
      newNumber = Number(hunk[2]);
      file.lines.push({ kind: 'hunk', text: line, oldNumber: null, newNumber: null });
      continue;
    }
    if (!inHunk) {
      if (line.startsWith('new file mode')) file.status = 'added';
      else if (line.startsWith('deleted file mode')) file.status = 'deleted';
      else if (RENAME_FROM.test(line)) {
        file.status = 'renamed';
        file.oldPath = RENAME_FROM.exec(line)![1]!;
      } else if (RENAME_TO.test(line)) file.path = RENAME_TO.exec(line)![1]!;
      else if (line.startsWith('Binary files ')) file.binary = true;
      continue;
    }
    if (line.startsWith('+')) {
      file.additions += 1;
      file.lines.push({ kind: 'added', text: line.slice(1), oldNumber: null, newNumber });
      newNumber += 1;
    } else if (line.startsWith('-')) {
      file.deletions += 1;
      file.lines.push({ kind: 'removed', text: line.slice(1), oldNumber, newNumber: null });
      oldNumber += 1;
    } else if (line.startsWith('\\')) {
      file.lines.push({
        kind: 'note',
        text: line.slice(1).trim(),
        oldNumber: null,
        newNumber: null,
      });
    } else {
      file.lines.push({ kind: 'context', text: line.slice(1), oldNumber, newNumber });
      oldNumber += 1;
      newNumber += 1;
    }
  }
  return files;
}
