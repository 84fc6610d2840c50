/**
 * What the documentation checks read of a Markdown file: its prose without code, its link targets and its
 * headings' anchors. Pure functions over the file's text; offsets are the original text's, so a finding names
 * the line it was found on.
 */

/** A link target as written, where it starts in the text. */
export interface LinkTarget {
  readonly target: string;
  readonly offset: number;
}

const blank = (text: string) => text.replace(/[^\n]/g, ' ');

/**
 * The text with fenced code blocks and inline code spans blanked out (newlines kept, so offsets and line
 * numbers stay those of the original): a path or a number in code is an example, not a reference.
 */
export function proseOf(text: string): string {
  const withoutFences = text.replace(
    /^( {0,3})(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^\1?\2[^\n]*$|(?![\s\S]))/gm,
    blank,
  );
  // A code span may wrap onto the next line but never spans a blank line.
  return withoutFences.replace(/(`+)(?:(?!\1)[^\n]|\n(?!\s*\n))+?\1/g, blank);
}

/** The 1-based line of `offset` in `text`. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let index = 0; index < offset && index < text.length; index++) {
    if (text[index] === '\n') line++;
  }
  return line;
}

/**
 * Every link target of the prose: inline links and images (`](target)`, nested ones included), reference
 * definitions (`[id]: target`) and HTML `href`/`src` attributes. Code is not read.
 */
export function linkTargetsOf(prose: string): LinkTarget[] {
  const patterns = [
    /\]\(\s*(?:<([^<>\n]+)>|([^\s()]+(?:\([^\s()]*\)[^\s()]*)*))(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g,
    /^ {0,3}\[[^\]\n]+\]:\s*<?([^\s>]+)>?/gm,
    /\b(?:href|src)\s*=\s*"([^"]+)"/g,
  ];
  const targets: LinkTarget[] = [];
  for (const pattern of patterns) {
    for (const match of prose.matchAll(pattern)) {
      const target = match[1] ?? match[2];
      if (target !== undefined) targets.push({ target, offset: match.index });
    }
  }
  return targets.sort((left, right) => left.offset - right.offset);
}

/** A heading's text as GitHub renders it, for its anchor: no emphasis marks, code ticks or link targets. */
function renderedHeading(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .replace(/<[^>]+>/g, '')
    .trim();
}

/** GitHub's anchor of a heading: lower case, punctuation removed (not `-` or `_`), each space a hyphen. */
export function anchorOf(heading: string): string {
  return renderedHeading(heading)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/**
 * Every anchor a link may point at in this file: each heading's (a repeated one gets `-1`, `-2` … as on
 * GitHub) and each HTML `id` or `name`.
 */
export function anchorsOf(text: string): Set<string> {
  const prose = proseOf(text);
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  // Found in the prose (a `#` line in a code block is no heading), read from the text (code in a heading counts).
  for (const match of prose.matchAll(/^ {0,3}#{1,6}[ \t].*$/gm)) {
    const line = text.slice(match.index, match.index + match[0].length);
    const anchor = anchorOf(line.replace(/^ {0,3}#{1,6}[ \t]+/, '').replace(/[ \t]+#+[ \t]*$/, ''));
    const count = seen.get(anchor) ?? 0;
    anchors.add(count === 0 ? anchor : `${anchor}-${count}`);
    seen.set(anchor, count + 1);
  }
  for (const match of prose.matchAll(/<a\s[^>]*\b(?:id|name)\s*=\s*"([^"]+)"/g)) {
    if (match[1] !== undefined) anchors.add(match[1]);
  }
  return anchors;
}
