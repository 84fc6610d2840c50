import path from 'node:path';
import { anchorsOf, lineAt, linkTargetsOf, proseOf } from './markdown-text.ts';

/**
 * The documentation's rules: every reference points at something in this repository. A clone is all a reader
 * has, so a link to a missing file or heading, a path on someone's machine, "DESIGN §3", "issue 19" or the
 * number of a decision that is not in `docs/decisions/` tells them nothing. Pure: the caller says which
 * files exist.
 */

/** One finding: the file (relative to the repository), its line, the rule and what to do. */
export interface DocsFinding {
  readonly file: string;
  readonly line: number;
  readonly rule: DocsRule;
  readonly message: string;
}

export type DocsRule =
  | 'broken-link'
  | 'broken-anchor'
  | 'outside-repository'
  | 'absolute-path'
  | 'design-reference'
  | 'issue-reference'
  | 'decision-reference';

/** What the checks know of the repository. Paths are relative to its root, with `/`. */
export interface RepositoryView {
  readonly exists: (relativePath: string) => boolean;
  /** The anchors of a Markdown file (its headings' and HTML ids). */
  readonly anchors: (relativePath: string) => ReadonlySet<string>;
  /** The numbers of `docs/decisions/NNNN-*.md`. */
  readonly decisionNumbers: ReadonlySet<string>;
}

/**
 * The records of the earlier system Forja implements (docs/records.md). They share the "ADR NNNN" form with
 * Forja's own decisions, so a reference to one says "record ADR NNNN"; docs/records.md itself is about them.
 */
export const RECORD_NUMBERS: ReadonlySet<string> = new Set(['0006', '0008', '0101', '0200']);
const RECORDS_PAGE = 'docs/records.md';

/** Formats a finding as `file:line: rule: message`. */
export function formatFinding(finding: DocsFinding): string {
  return `${finding.file}:${finding.line}: ${finding.rule}: ${finding.message}`;
}

function checkTarget(file: string, target: string, repository: RepositoryView) {
  if (/^(https?|mailto):/i.test(target)) return null;
  if (/^file:/i.test(target) || /^[/~]/.test(target) || /^[a-z]:[\\/]/i.test(target))
    return {
      rule: 'absolute-path' as const,
      message: `${target} is a path on one machine; link a file of the repository relatively`,
    };
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null;
  const [rawPath = '', fragment] = target.split('#', 2);
  const decoded = safeDecode(rawPath);
  const resolved =
    decoded === ''
      ? file
      : path.posix.normalize(path.posix.join(path.posix.dirname(file), decoded));
  if (resolved === '..' || resolved.startsWith('../'))
    return { rule: 'outside-repository' as const, message: `${target} leaves the repository` };
  if (!repository.exists(resolved))
    return { rule: 'broken-link' as const, message: `${target}: ${resolved} does not exist` };
  if (fragment === undefined || fragment === '' || !resolved.endsWith('.md')) return null;
  if (repository.anchors(resolved).has(safeDecode(fragment).toLowerCase())) return null;
  return {
    rule: 'broken-anchor' as const,
    message: `${target}: ${resolved} has no heading with the anchor #${fragment}`,
  };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The links of a file whose target is missing, outside the repository or on one machine. */
export function linkFindings(
  file: string,
  text: string,
  repository: RepositoryView,
): DocsFinding[] {
  const findings: DocsFinding[] = [];
  for (const { target, offset } of linkTargetsOf(proseOf(text))) {
    const problem = checkTarget(file, target, repository);
    if (problem !== null) findings.push({ file, line: lineAt(text, offset), ...problem });
  }
  return findings;
}

const DESIGN_REFERENCE = /\bDESIGN(?:\.md\b|\s*§)/g;
const ISSUE_WORDS = /\b(?:issues?|pull requests?|PRs?)\s+#?\d+/gi;
const ISSUE_REFERENCE = new RegExp(`${ISSUE_WORDS.source}|(?<![\\w&/#-])#\\d+\\b`, 'gi');
const DECISION_REFERENCE =
  /\b(record\s+)?(?:ADRs?|decisions?)\s+(\d{4}(?:\s*(?:,|and|or|–|-|\/)\s*\d{4})*)/gi;

/** Where `number` named as in `match` points at nothing of this repository, what to write instead. */
function decisionProblem(
  file: string,
  number: string,
  isRecord: boolean,
  repository: RepositoryView,
) {
  if (isRecord)
    return RECORD_NUMBERS.has(number)
      ? null
      : `"record ADR ${number}": the records are ${[...RECORD_NUMBERS].join(', ')} (docs/records.md)`;
  if (repository.decisionNumbers.has(number)) return null;
  if (file === RECORDS_PAGE && RECORD_NUMBERS.has(number)) return null;
  return RECORD_NUMBERS.has(number)
    ? `ADR ${number} is a record, not a file of docs/decisions/: write "record ADR ${number}" (docs/records.md)`
    : `ADR ${number} is not in docs/decisions/ nor a record: say what it decided, or link the decision that holds it`;
}

/**
 * References in the prose (code aside) to what is not in the repository: "DESIGN §N" or DESIGN.md, an issue
 * or pull request number, a decision number that is neither a file of docs/decisions/ nor, written as
 * "record ADR NNNN", one of the records.
 */
export function referenceFindings(
  file: string,
  text: string,
  repository: RepositoryView,
  options: { readonly inCode?: boolean } = {},
): DocsFinding[] {
  const prose = options.inCode === true ? text : proseOf(text);
  const findings: DocsFinding[] = [];
  const at = (offset: number) => lineAt(text, offset);
  for (const match of prose.matchAll(DESIGN_REFERENCE))
    findings.push({
      file,
      line: at(match.index),
      rule: 'design-reference',
      message: `"${match[0]}" names a document outside the repository: say what it says, or link docs/records.md or a decision`,
    });
  for (const match of prose.matchAll(options.inCode === true ? ISSUE_WORDS : ISSUE_REFERENCE))
    findings.push({
      file,
      line: at(match.index),
      rule: 'issue-reference',
      message: `"${match[0]}" points at an issue tracker a clone does not have: say what was asked or found`,
    });
  for (const match of prose.matchAll(DECISION_REFERENCE)) {
    for (const number of match[2]?.match(/\d{4}/g) ?? []) {
      const message = decisionProblem(file, number, match[1] !== undefined, repository);
      if (message !== null)
        findings.push({ file, line: at(match.index), rule: 'decision-reference', message });
    }
  }
  return findings.sort((left, right) => left.line - right.line);
}

/**
 * References in source code (comments, and strings such as an API description) to what is not in the
 * repository: the same rules as the prose's, but a bare `#3` is left alone (code numbers events that way).
 */
export function codeFindings(
  file: string,
  text: string,
  repository: RepositoryView,
): DocsFinding[] {
  return referenceFindings(file, text, repository, { inCode: true });
}

/** Every finding of one Markdown file. */
export function checkMarkdown(
  file: string,
  text: string,
  repository: RepositoryView,
): DocsFinding[] {
  return [
    ...linkFindings(file, text, repository),
    ...referenceFindings(file, text, repository),
  ].sort((left, right) => left.line - right.line);
}

/** The anchors of `text`, for a RepositoryView built over real files. */
export { anchorsOf };
