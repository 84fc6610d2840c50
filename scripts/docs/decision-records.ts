/**
 * Forja's decision records (`docs/decisions/NNNN-*.md`) as their first lines state them, and the index
 * (`docs/decisions/README.md`) generated from them. Every record starts with the same block:
 *
 *     # NNNN — Title
 *
 *     Status: accepted (YYYY-MM-DD)[; amended by [MMMM](MMMM-….md), …][; superseded by [MMMM](MMMM-….md)]
 *
 *     [Amends: [MMMM](MMMM-….md) (what it changes), ….]
 *
 * followed by whatever else the record says. Pure: the caller reads the files.
 */

/** One record's first lines, parsed. */
export interface DecisionRecord {
  readonly number: string;
  readonly fileName: string;
  readonly title: string;
  readonly accepted: string;
  readonly amendedBy: readonly string[];
  readonly supersededBy: string | null;
  readonly amends: readonly string[];
}

/** What is wrong with a record's first lines, at its line. */
export interface RecordProblem {
  readonly line: number;
  readonly message: string;
}

export type ParsedRecord =
  | { readonly ok: true; readonly record: DecisionRecord }
  | { readonly ok: false; readonly problems: readonly RecordProblem[] };

/** A record's file name: four digits, a hyphen, words. */
export const DECISION_FILE = /^(\d{4})-[a-z0-9-]+\.md$/;

const STATUS =
  /^Status: accepted \((\d{4}-\d{2}-\d{2})\)(?:; amended by ((?:\[\d{4}\]\([^)]+\)(?:, )?)+))?(?:; superseded by (\[\d{4}\]\([^)]+\)))?$/;
const LINK = /\[(\d{4})\]\((\d{4}-[a-z0-9-]+\.md)\)/g;

/** The record numbers a piece of the block links to, each link's text the number its target file starts with. */
function linkedNumbers(text: string, line: number, problems: RecordProblem[]): string[] {
  return [...text.matchAll(LINK)].map(([, number = '', target = '']) => {
    if (!target.startsWith(`${number}-`))
      problems.push({ line, message: `the link [${number}] points at ${target}` });
    return number;
  });
}

function headerBlock(lines: readonly string[]): readonly string[] {
  const end = lines.findIndex((line, index) => index > 0 && line.startsWith('#'));
  return end === -1 ? lines : lines.slice(0, end);
}

/** Parses a record's first lines; every problem names its line and what the block should say. */
export function parseDecisionRecord(fileName: string, text: string): ParsedRecord {
  const number = DECISION_FILE.exec(fileName)?.[1];
  if (number === undefined)
    return { ok: false, problems: [{ line: 1, message: 'the file name is not NNNN-words.md' }] };
  const lines = text.split('\n');
  const problems: RecordProblem[] = [];
  const title = new RegExp(`^# ${number} — (\\S.*)$`).exec(lines[0] ?? '')?.[1];
  if (title === undefined)
    problems.push({ line: 1, message: `the first line is not "# ${number} — Title"` });
  if (lines[1] !== '') problems.push({ line: 2, message: 'the second line is not empty' });
  const status = STATUS.exec(lines[2] ?? '');
  if (status === null)
    problems.push({
      line: 3,
      message:
        'the third line is not "Status: accepted (YYYY-MM-DD)" with an optional "; amended by [NNNN](file.md), …" and "; superseded by [NNNN](file.md)"',
    });
  const amendedBy = linkedNumbers(status?.[2] ?? '', 3, problems);
  const supersededBy = linkedNumbers(status?.[3] ?? '', 3, problems)[0] ?? null;
  const amendsIndex = headerBlock(lines).findIndex((line) => line.startsWith('Amends:'));
  const amends =
    amendsIndex === -1 ? [] : linkedNumbers(lines[amendsIndex] ?? '', amendsIndex + 1, problems);
  if (amendsIndex !== -1 && amends.length === 0)
    problems.push({ line: amendsIndex + 1, message: '"Amends:" links no record' });
  if (problems.length > 0 || title === undefined || status === null) return { ok: false, problems };
  const accepted = status[1] ?? '';
  return {
    ok: true,
    record: { number, fileName, title, accepted, amendedBy, supersededBy, amends },
  };
}

/**
 * Where two records disagree: a record that amends another must be listed in that one's "amended by", and
 * the other way round; every number named must be a record.
 */
export function amendmentProblems(records: readonly DecisionRecord[]): string[] {
  const byNumber = new Map(records.map((record) => [record.number, record]));
  const problems: string[] = [];
  for (const record of records) {
    for (const amended of record.amends) {
      const other = byNumber.get(amended);
      if (other === undefined)
        problems.push(`${record.fileName}: amends ${amended}, which is no record`);
      else if (!other.amendedBy.includes(record.number))
        problems.push(
          `${other.fileName}: its Status does not say "amended by ${record.number}" (${record.fileName} amends it)`,
        );
    }
    for (const amender of record.amendedBy) {
      const other = byNumber.get(amender);
      if (other === undefined)
        problems.push(`${record.fileName}: amended by ${amender}, which is no record`);
      else if (!other.amends.includes(record.number))
        problems.push(
          `${other.fileName}: has no "Amends:" line naming ${record.number} (${record.fileName} says it is amended by it)`,
        );
    }
  }
  return problems;
}

const linkTo = (records: ReadonlyMap<string, DecisionRecord>, numbers: readonly string[]) =>
  numbers
    .map((number) => `[${number}](${records.get(number)?.fileName ?? `${number}.md`})`)
    .join(', ');

/** One record's line of the index: number and linked title, status, what it amends and what amended it. */
function indexLine(record: DecisionRecord, byNumber: ReadonlyMap<string, DecisionRecord>): string {
  const parts = [
    `[${record.number} — ${record.title}](${record.fileName})`,
    record.supersededBy === null
      ? `accepted ${record.accepted}`
      : `superseded by ${linkTo(byNumber, [record.supersededBy])}`,
  ];
  if (record.amends.length > 0) parts.push(`amends ${linkTo(byNumber, record.amends)}`);
  if (record.amendedBy.length > 0) parts.push(`amended by ${linkTo(byNumber, record.amendedBy)}`);
  return `- ${parts.join(' · ')}`;
}

/** `docs/decisions/README.md`: every record in number order with its status and amendments. */
export function renderDecisionIndex(records: readonly DecisionRecord[]): string {
  const sorted = [...records].sort((left, right) => left.number.localeCompare(right.number));
  const byNumber = new Map(sorted.map((record) => [record.number, record]));
  return [
    '# Decisions',
    '',
    "Forja's architecture decision records, in number order. Each says what was decided and why; one that a later",
    'decision changed links to it ("amended by"), and the later one links back ("amends").',
    '',
    'The four records of the earlier system that Forja implements are another series with numbers of their own,',
    'explained in [the records](../records.md): "record ADR 0006" is the harness record, not',
    '[0006](0006-tool-loop-and-conversation-events.md) below.',
    '',
    'This page is generated from the first lines of each record: `npm run gen:decisions` writes it, and',
    '`test/docs/docs-links.unit.test.ts` fails when it is stale.',
    '',
    ...sorted.map((record) => indexLine(record, byNumber)),
    '',
  ].join('\n');
}
