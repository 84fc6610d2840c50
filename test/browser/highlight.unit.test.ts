import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Grammar,
  grammarFor,
  highlightLine,
  highlightLines,
  type Token,
} from '../../web/src/components/highlight.ts';

const GRAMMARS: Grammar[] = ['js', 'python', 'shell', 'json', 'clike', 'config', 'sql'];
const kinds = (tokens: Token[]) =>
  tokens.filter((token) => token.kind !== 'plain').map((token) => `${token.kind}:${token.text}`);

describe('the code highlighter', () => {
  it('finds keywords, strings, numbers and comments of a TypeScript line', () => {
    const { tokens } = highlightLine(
      "export const cutoff = '05:00'; // before dawn, 3 loaves",
      'js',
    );
    expect(kinds(tokens)).toEqual([
      'keyword:export',
      'keyword:const',
      "string:'05:00'",
      'comment:// before dawn, 3 loaves',
    ]);
  });

  it('keeps escaped quotes inside a string and ends an unclosed one at the line end', () => {
    expect(kinds(highlightLine('x = "a \\" b" + 42', 'js').tokens)).toEqual([
      'string:"a \\" b"',
      'number:42',
    ]);
    expect(kinds(highlightLine("print('open", 'python').tokens)).toEqual(["string:'open"]);
  });

  it('carries a block comment from line to line, and only where the language has them', () => {
    const lines = highlightLines(['let a = 1; /* one', 'two', 'three */ return a;'], 'js');
    expect(kinds(lines[0]!)).toEqual(['keyword:let', 'number:1', 'comment:/* one']);
    expect(kinds(lines[1]!)).toEqual(['comment:two']);
    expect(kinds(lines[2]!)).toEqual(['comment:three */', 'keyword:return']);
    expect(kinds(highlightLine('a /* b', 'python').tokens)).toEqual([]);
  });

  it("reads each language's own comments and keywords", () => {
    expect(kinds(highlightLine('def bake(n): # by dawn', 'python').tokens)).toEqual([
      'keyword:def',
      'comment:# by dawn',
    ]);
    // A shell `#` inside a word is not a comment.
    expect(kinds(highlightLine('echo a#b # note', 'shell').tokens)).toEqual(['comment:# note']);
    expect(kinds(highlightLine('SELECT id FROM orders -- all', 'sql').tokens)).toEqual([
      'keyword:SELECT',
      'keyword:FROM',
      'comment:-- all',
    ]);
    expect(kinds(highlightLine('{"a": true, "b": 1.5e3}', 'json').tokens)).toEqual([
      'string:"a"',
      'keyword:true',
      'string:"b"',
      'number:1.5e3',
    ]);
    // A digit inside a name is not a number; `const` in Python is not a keyword.
    expect(kinds(highlightLine('item2 = const', 'python').tokens)).toEqual([]);
  });

  it('picks the grammar from a path or a fence name, none for what it does not know', () => {
    expect(grammarFor('src/orders.ts')).toBe('js');
    expect(grammarFor('typescript')).toBe('js');
    expect(grammarFor('app/main.PY')).toBe('python');
    expect(grammarFor('Dockerfile')).toBe('shell');
    expect(grammarFor('docker-compose.yml')).toBe('config');
    expect(grammarFor('README.md')).toBeNull();
    expect(grammarFor('')).toBeNull();
  });

  it('never changes the text: the tokens of a line are the line', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: fc.constantFrom(...'ab1 "\'`#/*-\\.$_xe\t'.split('')) }), {
          maxLength: 6,
        }),
        fc.constantFrom(...GRAMMARS),
        (lines, grammar) => {
          const highlighted = highlightLines(lines, grammar);
          expect(highlighted.map((tokens) => tokens.map((token) => token.text).join(''))).toEqual(
            lines,
          );
          for (const tokens of highlighted)
            for (const token of tokens) expect(token.text).not.toBe('');
        },
      ),
    );
  });
});
