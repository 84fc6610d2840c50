/**
 * A small code highlighter for what the UI shows of files and answers (ADR 0407): comments, strings, numbers
 * and keywords of a few language families, line by line, carrying only "inside a block comment" from one line
 * to the next. It never changes the text: the tokens of a line are the line, cut in pieces.
 */

export type TokenKind = 'plain' | 'comment' | 'string' | 'number' | 'keyword';
export interface Token {
  kind: TokenKind;
  text: string;
}
export type Grammar = 'js' | 'python' | 'shell' | 'json' | 'clike' | 'config' | 'sql';
/** Carried from a line to the next: whether it ends inside a block comment. */
export type LineState = { inBlockComment: boolean };

const words = (list: string) => new Set(list.split(' '));
const KEYWORDS: Record<Grammar, Set<string>> = {
  js: words(
    'as async await break case catch class const continue debugger default delete do else enum export extends false finally for from function if implements import in instanceof interface keyof let new null of private protected public readonly return satisfies static super switch this throw true try type typeof undefined var void while yield',
  ),
  python: words(
    'and as assert async await break case class continue def del elif else except False finally for from global if import in is lambda match None nonlocal not or pass raise return self True try while with yield',
  ),
  shell: words(
    'case do done elif else esac exit export fi for function if in local return set then until while',
  ),
  json: words('true false null'),
  clike: words(
    'bool break case catch char class const continue default defer do else enum extends false final fn for func go if impl import int interface let loop match mod mut new nil null package private protected pub public return self static string struct super switch this throw trait true try type use var void while',
  ),
  config: words('true false null yes no on off'),
  sql: words(
    'add all alter and as asc by case check create default delete desc distinct drop else end exists foreign from group having in index insert into is join key left not null on or order primary references right select set table then union unique update values when where with',
  ),
};
const LINE_COMMENT: Record<Grammar, string | null> = {
  js: '//',
  python: '#',
  shell: '#',
  json: null,
  clike: '//',
  config: '#',
  sql: '--',
};
const BLOCK_COMMENTS: ReadonlySet<Grammar> = new Set(['js', 'clike', 'sql']);
const QUOTES: Record<Grammar, string> = {
  js: `"'\``,
  python: `"'`,
  shell: `"'`,
  json: '"',
  clike: `"'\``,
  config: `"'`,
  sql: `'"`,
};
const NUMBER = /(?:0[xX][0-9a-fA-F_]+|\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?)(?![\w$])/y;
const WORD = /[A-Za-z_$][\w$]*/y;

const BY_EXTENSION: Record<string, Grammar> = {
  ts: 'js',
  tsx: 'js',
  mts: 'js',
  cts: 'js',
  js: 'js',
  jsx: 'js',
  mjs: 'js',
  cjs: 'js',
  typescript: 'js',
  javascript: 'js',
  py: 'python',
  python: 'python',
  sh: 'shell',
  bash: 'shell',
  zsh: 'shell',
  shell: 'shell',
  console: 'shell',
  json: 'json',
  go: 'clike',
  rs: 'clike',
  rust: 'clike',
  java: 'clike',
  kt: 'clike',
  c: 'clike',
  h: 'clike',
  cpp: 'clike',
  cs: 'clike',
  swift: 'clike',
  css: 'clike',
  yml: 'config',
  yaml: 'config',
  toml: 'config',
  sql: 'sql',
};

/** The grammar of a file path's extension, or of a code fence's language name; `null` when none fits. */
export function grammarFor(pathOrLanguage: string): Grammar | null {
  const name = pathOrLanguage.toLowerCase();
  if (/(^|\/)dockerfile$/.test(name) || /(^|\/)\.?env(\..*)?$/.test(name)) return 'shell';
  const extension = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : name;
  return BY_EXTENSION[extension] ?? null;
}

/** The tokens of one line, and the state the next line starts in. */
export function highlightLine(
  line: string,
  grammar: Grammar,
  state: LineState = { inBlockComment: false },
): { tokens: Token[]; state: LineState } {
  const tokens: Token[] = [];
  const push = (kind: TokenKind, text: string) => {
    const last = tokens[tokens.length - 1];
    if (last !== undefined && last.kind === kind) last.text += text;
    else tokens.push({ kind, text });
  };
  let at = 0;
  let inBlockComment = state.inBlockComment && BLOCK_COMMENTS.has(grammar);
  const lineComment = LINE_COMMENT[grammar];
  while (at < line.length) {
    if (inBlockComment) {
      const end = line.indexOf('*/', at);
      const stop = end === -1 ? line.length : end + 2;
      push('comment', line.slice(at, stop));
      at = stop;
      inBlockComment = end === -1;
      continue;
    }
    const rest = line.slice(at);
    if (BLOCK_COMMENTS.has(grammar) && rest.startsWith('/*')) {
      inBlockComment = true;
      push('comment', '/*');
      at += 2;
      continue;
    }
    if (
      lineComment !== null &&
      rest.startsWith(lineComment) &&
      commentMayStart(line, at, grammar)
    ) {
      push('comment', rest);
      break;
    }
    const char = line[at] as string;
    if (QUOTES[grammar].includes(char)) {
      const stop = stringEnd(line, at, char);
      push('string', line.slice(at, stop));
      at = stop;
      continue;
    }
    const word = matchAt(WORD, line, at);
    if (word !== null) {
      push(
        KEYWORDS[grammar].has(grammar === 'sql' ? word.toLowerCase() : word) ? 'keyword' : 'plain',
        word,
      );
      at += word.length;
      continue;
    }
    const number = matchAt(NUMBER, line, at);
    if (number !== null) {
      push('number', number);
      at += number.length;
      continue;
    }
    push('plain', char);
    at += 1;
  }
  return { tokens, state: { inBlockComment } };
}

/** Every line of a text, highlighted, the block-comment state carried along. */
export function highlightLines(lines: readonly string[], grammar: Grammar): Token[][] {
  let state: LineState = { inBlockComment: false };
  return lines.map((line) => {
    const result = highlightLine(line, grammar, state);
    state = result.state;
    return result.tokens;
  });
}

/** A shell `#` starts a comment only at a word's start (`a#b` and `$#` are not comments). */
function commentMayStart(line: string, at: number, grammar: Grammar): boolean {
  if (grammar !== 'shell' || at === 0) return true;
  return /\s/.test(line[at - 1] as string);
}

/** Where the string opened at `start` ends: after its closing quote (escapes skipped), else at the line's end. */
function stringEnd(line: string, start: number, quote: string): number {
  let at = start + 1;
  while (at < line.length) {
    const char = line[at];
    if (char === '\\') at += 2;
    else if (char === quote) return at + 1;
    else at += 1;
  }
  return line.length;
}

function matchAt(pattern: RegExp, line: string, at: number): string | null {
  pattern.lastIndex = at;
  return pattern.exec(line)?.[0] ?? null;
}
