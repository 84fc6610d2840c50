import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  amendmentProblems,
  renderDecisionIndex,
  type DecisionRecord,
} from './docs/decision-records.ts';
import { readDecisionRecords } from './docs/repository-files.ts';

/**
 * `npm run gen:decisions`: writes docs/decisions/README.md, the index of Forja's decisions, from each record's
 * first lines (number, title, status, what it amends and what amended it). `--check` writes nothing and fails
 * when the committed index is stale; `test/docs/docs-links.unit.test.ts` checks the same in `npm test`.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const TARGET = `${root}docs/decisions/README.md`;

const records: DecisionRecord[] = [];
const problems: string[] = [];
for (const [name, parsed] of readDecisionRecords(root)) {
  if (parsed.ok) records.push(parsed.record);
  else
    for (const problem of parsed.problems)
      problems.push(`docs/decisions/${name}:${problem.line}: ${problem.message}`);
}
problems.push(...amendmentProblems(records).map((problem) => `docs/decisions/${problem}`));
if (problems.length > 0) {
  process.stderr.write(`gen:decisions: fix these first\n${problems.join('\n')}\n`);
  process.exit(1);
}
const index = renderDecisionIndex(records);
if (process.argv.includes('--check')) {
  if (readFileSync(TARGET, 'utf8') !== index) {
    process.stderr.write('docs/decisions/README.md is stale: run `npm run gen:decisions`\n');
    process.exit(1);
  }
} else {
  writeFileSync(TARGET, index);
}
