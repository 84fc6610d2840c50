import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript-5';
import { ROOT } from './source-files.ts';

/** A function of the code and how many lines it spans, from its first line to its closing brace. */
export type MeasuredFunction = { path: string; name: string; line: number; lines: number };

/** A function's name as a reader finds it: its own, its variable's, its property's, or its enclosing function's. */
function nameOf(node: ts.SignatureDeclaration, source: ts.SourceFile): string {
  if (node.name !== undefined) return node.name.getText(source);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))
    return parent.name.getText(source);
  for (let outer = node.parent; outer !== undefined; outer = outer.parent)
    if (ts.isFunctionLike(outer)) return `${nameOf(outer, source)} › anonymous`;
  return 'anonymous';
}

/** Every function with a body in `source` (declarations, expressions, arrows, methods), measured by the compiler's parse. */
export function measureFunctions(path: string, text: string): MeasuredFunction[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: MeasuredFunction[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ path, name: nameOf(node, source), line: first + 1, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

export const measureFile = (path: string) =>
  measureFunctions(path, readFileSync(join(ROOT, path), 'utf8'));
