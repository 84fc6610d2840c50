import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkMarkdown,
  codeFindings,
  formatFinding,
  type RepositoryView,
} from '../../scripts/docs/check-docs.ts';
import {
  amendmentProblems,
  parseDecisionRecord,
  renderDecisionIndex,
  type DecisionRecord,
} from '../../scripts/docs/decision-records.ts';
import { anchorsOf } from '../../scripts/docs/markdown-text.ts';
import {
  filesUnder,
  markdownFiles,
  readDecisionRecords,
  repositoryView,
} from '../../scripts/docs/repository-files.ts';

const root = path.resolve(import.meta.dirname, '../..');
const read = (relative: string) => readFileSync(path.join(root, relative), 'utf8');

/** The rules' own examples (this test, the checker) name what they refuse; nothing else may. */
const CHECKER_FILES = /^(scripts\/docs\/|test\/docs\/)/;

describe('the documentation points only inside the repository', () => {
  const repository = repositoryView(root);

  it('every Markdown file: links and anchors resolve, nothing names a document or issue outside it', () => {
    const files = markdownFiles(root);
    expect(files).toContain('README.md');
    expect(files).toContain('docs/decisions/README.md');
    const findings = files.flatMap((file) => checkMarkdown(file, read(file), repository));
    expect(findings.map(formatFinding)).toEqual([]);
  });

  it('source code names no DESIGN section, issue number or decision that is not in the repository', () => {
    const files = ['src', 'web/src', 'bench', 'bin', 'scripts', 'test']
      .flatMap((directory) => filesUnder(root, directory, ['.ts', '.tsx']))
      .filter((file) => !CHECKER_FILES.test(file));
    expect(files.length).toBeGreaterThan(500);
    const findings = files.flatMap((file) => codeFindings(file, read(file), repository));
    expect(findings.map(formatFinding)).toEqual([]);
  });

  it('every decision record starts with its status block, and an amendment is named on both sides', () => {
    const records: DecisionRecord[] = [];
    const problems: string[] = [];
    for (const [name, parsed] of readDecisionRecords(root)) {
      if (parsed.ok) records.push(parsed.record);
      else
        problems.push(
          ...parsed.problems.map(
            (problem) =>
              `docs/decisions/${name}:${problem.line}: decision-header: ${problem.message}`,
          ),
        );
    }
    problems.push(...amendmentProblems(records).map((problem) => `decision-amends: ${problem}`));
    expect(problems).toEqual([]);
    expect(records.length).toBeGreaterThan(60);
  });

  it('docs/decisions/README.md is the index of every record (npm run gen:decisions writes it)', () => {
    const records = [...readDecisionRecords(root).values()].flatMap((parsed) =>
      parsed.ok ? [parsed.record] : [],
    );
    const index = read('docs/decisions/README.md');
    for (const record of records) expect(index).toContain(`](${record.fileName})`);
    expect(index, 'stale: run `npm run gen:decisions`').toBe(renderDecisionIndex(records));
  });
});

/** A made-up repository: these files exist, these Markdown files have these texts. */
function madeUp(texts: Record<string, string>, others: readonly string[] = []): RepositoryView {
  const files = new Set([...Object.keys(texts), ...others]);
  return {
    exists: (relative) =>
      files.has(relative) || [...files].some((file) => file.startsWith(`${relative}/`)),
    anchors: (relative) => anchorsOf(texts[relative] ?? ''),
    decisionNumbers: new Set(['0006', '0070']),
  };
}

const rulesOf = (file: string, texts: Record<string, string>, others: readonly string[] = []) =>
  checkMarkdown(file, texts[file] ?? '', madeUp(texts, others)).map(formatFinding);

describe('the link rules', () => {
  const guide = [
    '# Guide',
    '',
    '## Running a team',
    '',
    'See [the map](../architecture.md#a-turn-end-to-end), [lanes](decisions/0070-lanes.md),',
    '[here](#running-a-team), [the picture](screenshots/x.png) and [web](https://example.com/a).',
    '',
    '[map]: ../architecture.md',
  ].join('\n');

  it('passes links to files and headings that exist', () => {
    const texts = { 'docs/guide.md': guide, 'architecture.md': '# Map\n\n## A turn, end to end\n' };
    expect(
      rulesOf('docs/guide.md', texts, ['docs/decisions/0070-lanes.md', 'docs/screenshots/x.png']),
    ).toEqual([]);
  });

  it('names the file, line and rule of a missing file, a missing heading, a path out of the repository or on one machine', () => {
    const text = [
      '# Guide',
      '',
      'A [gone](missing.md) file and a [gone heading](#nowhere).',
      'The [design](../../shared/DESIGN-doc.md) and [a home](/work/shared/STYLE.md),',
      '![shot](file:///tmp/x.png) and [in code `[x](nope.md)`](guide.md).',
      '',
      '```md',
      '[example](not-checked.md)',
      '```',
    ].join('\n');
    expect(rulesOf('docs/guide.md', { 'docs/guide.md': text })).toEqual([
      'docs/guide.md:3: broken-link: missing.md: docs/missing.md does not exist',
      'docs/guide.md:3: broken-anchor: #nowhere: docs/guide.md has no heading with the anchor #nowhere',
      'docs/guide.md:4: outside-repository: ../../shared/DESIGN-doc.md leaves the repository',
      'docs/guide.md:4: absolute-path: /work/shared/STYLE.md is a path on one machine; link a file of the repository relatively',
      'docs/guide.md:5: absolute-path: file:///tmp/x.png is a path on one machine; link a file of the repository relatively',
    ]);
  });

  it("computes GitHub's anchors: punctuation dropped, spaces hyphenated, code kept, repeats numbered", () => {
    const anchors = anchorsOf(
      '# ADR 0006 — the harness: deterministic\n## `forja context` (debug)\n## Notes\n## Notes\n```\n# not a heading\n```\n',
    );
    expect([...anchors]).toEqual([
      'adr-0006--the-harness-deterministic',
      'forja-context-debug',
      'notes',
      'notes-1',
    ]);
  });
});

describe('the reference rules', () => {
  const check = (text: string, file = 'docs/guide.md') =>
    rulesOf(file, { [file]: text }, ['docs/records.md']);

  it('refuses DESIGN sections, issue numbers and decisions the repository does not hold, naming each', () => {
    const text = [
      'As DESIGN §3 says (see DESIGN.md), issue 19 asked for it; #12 too.',
      'ADR 0068 and decisions 0070 and 0071 decided it; record ADR 0007 too.',
      'ADR 0101 is a record written without "record".',
    ].join('\n');
    expect(check(text)).toEqual([
      'docs/guide.md:1: design-reference: "DESIGN §" names a document outside the repository: say what it says, or link docs/records.md or a decision',
      'docs/guide.md:1: design-reference: "DESIGN.md" names a document outside the repository: say what it says, or link docs/records.md or a decision',
      'docs/guide.md:1: issue-reference: "issue 19" points at an issue tracker a clone does not have: say what was asked or found',
      'docs/guide.md:1: issue-reference: "#12" points at an issue tracker a clone does not have: say what was asked or found',
      'docs/guide.md:2: decision-reference: ADR 0068 is not in docs/decisions/ nor a record: say what it decided, or link the decision that holds it',
      'docs/guide.md:2: decision-reference: ADR 0071 is not in docs/decisions/ nor a record: say what it decided, or link the decision that holds it',
      'docs/guide.md:2: decision-reference: "record ADR 0007": the records are 0006, 0008, 0101, 0200 (docs/records.md)',
      'docs/guide.md:3: decision-reference: ADR 0101 is a record, not a file of docs/decisions/: write "record ADR 0101" (docs/records.md)',
    ]);
  });

  it('passes decisions that exist, the records written as such, code, and the records page itself', () => {
    const text = [
      'Decision 0070 amends ADR 0006; record ADR 0101 and [record ADR 0200](records.md) hold.',
      'In code: `issue 19`, `DESIGN §3`, `ADR 0068` and `event #12` are examples.',
      '',
      '```',
      'issue 20',
      '```',
    ].join('\n');
    expect(check(text)).toEqual([]);
    expect(check('## ADR 0101 — relational memory', 'docs/records.md')).toEqual([]);
  });

  it('in code, a bare #3 is an event number, but an issue or an unknown decision is refused', () => {
    const source = [
      "const source = 'artifact.business_rule #3';",
      '/** The ContextManager (DESIGN §3), asked by issue 15; ADR 0101 is a record. */',
    ].join('\n');
    expect(codeFindings('src/x.ts', source, madeUp({})).map(formatFinding)).toEqual([
      'src/x.ts:2: design-reference: "DESIGN §" names a document outside the repository: say what it says, or link docs/records.md or a decision',
      'src/x.ts:2: issue-reference: "issue 15" points at an issue tracker a clone does not have: say what was asked or found',
      'src/x.ts:2: decision-reference: ADR 0101 is a record, not a file of docs/decisions/: write "record ADR 0101" (docs/records.md)',
    ]);
  });
});

describe('the decision records', () => {
  const record = (number: string, status: string, amends = '') =>
    [
      `# ${number} — Title ${number}`,
      '',
      status,
      '',
      amends,
      '',
      '## Context',
      '',
      'Amends: not here.',
    ].join('\n');

  it('reads the status block and refuses a record without one, naming the line', () => {
    const parsed = parseDecisionRecord(
      '0205-fenced.md',
      record(
        '0205',
        'Status: accepted (2026-12-01); amended by [0248](0248-group.md)',
        'Amends: [0170](0170-leases.md) (fencing).',
      ),
    );
    expect(parsed).toEqual({
      ok: true,
      record: {
        number: '0205',
        fileName: '0205-fenced.md',
        title: 'Title 0205',
        accepted: '2026-12-01',
        amendedBy: ['0248'],
        supersededBy: null,
        amends: ['0170'],
      },
    });
    expect(parseDecisionRecord('0130-x.md', '# 0130 — Title\n\nIssue 18, item 3.\n')).toMatchObject(
      {
        ok: false,
        problems: [{ line: 3, message: expect.stringContaining('Status: accepted (YYYY-MM-DD)') }],
      },
    );
    expect(
      parseDecisionRecord('0131-x.md', '# 0130 — Title\n\nStatus: accepted (2026-12-01)\n'),
    ).toMatchObject({
      ok: false,
      problems: [{ line: 1, message: 'the first line is not "# 0131 — Title"' }],
    });
  });

  it('finds an amendment named on one side only', () => {
    const parse = (name: string, text: string) => {
      const parsed = parseDecisionRecord(name, text);
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
      return parsed.record;
    };
    const amended = parse('0170-leases.md', record('0170', 'Status: accepted (2026-12-01)'));
    const amender = parse(
      '0205-fenced.md',
      record('0205', 'Status: accepted (2026-12-01)', 'Amends: [0170](0170-leases.md) (fencing).'),
    );
    const claimed = parse(
      '0070-lanes.md',
      record('0070', 'Status: accepted (2026-12-01); amended by [0205](0205-fenced.md)'),
    );
    expect(amendmentProblems([amended, amender, claimed])).toEqual([
      '0170-leases.md: its Status does not say "amended by 0205" (0205-fenced.md amends it)',
      '0205-fenced.md: has no "Amends:" line naming 0070 (0070-lanes.md says it is amended by it)',
    ]);
  });
});
