import { Buffer } from 'node:buffer';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createBpeTokenizer, estimateTokenizer } from '../../src/harness/index.ts';
import type { BenchReport } from '../lib/bench-report.ts';
import { round } from '../lib/latency.ts';

const REPOSITORY = resolve(import.meta.dirname, '../..');
/** Fixed texts the repository ships, so the corpus is the same on every machine. */
const FIXTURES = join(REPOSITORY, 'bench/fixtures/tokenizer');
const MAX_FILES_PER_KIND = 40;
const MAX_FILE_BYTES = 256 * 1024;

interface CorpusFile {
  readonly kind: string;
  readonly label: string;
  readonly text: string;
}

function filesUnder(directory: string, extensions: readonly string[]): string[] {
  if (!existsSync(directory)) return [];
  return (readdirSync(directory, { recursive: true, encoding: 'utf8' }) as string[])
    .filter(
      (file) => !file.split('/').includes('node_modules') && extensions.includes(extname(file)),
    )
    .map((file) => join(directory, file))
    .filter((file) => statSync(file).isFile() && statSync(file).size <= MAX_FILE_BYTES)
    .sort();
}

/**
 * The repository's own TypeScript, Markdown and lockfile, and the shipped Russian and CJK prose, largest first per
 * kind. Only files in the repository: the corpus must not change with what else the machine has.
 */
function corpus(): CorpusFile[] {
  const kinds: Array<[string, string[]]> = [
    [
      'typescript',
      [
        ...filesUnder(join(REPOSITORY, 'src'), ['.ts']),
        ...filesUnder(join(REPOSITORY, 'bench'), ['.ts']),
      ],
    ],
    [
      'markdown',
      filesUnder(REPOSITORY, ['.md']).filter((file) => !file.includes('/test-results/')),
    ],
    // Files that change only with a commit (never bench/results, which this benchmark itself rewrites).
    [
      'json',
      [
        'package.json',
        'package-lock.json',
        'tsconfig.json',
        'src/domain/conversation/__fixtures__/criativo-session.v1.json',
      ].map((file) => join(REPOSITORY, file)),
    ],
    ['russian prose', [join(FIXTURES, 'russian-prose.txt')]],
    ['cjk prose', [join(FIXTURES, 'cjk-prose.txt')]],
  ];
  return kinds.flatMap(([kind, files]) =>
    [...new Set(files)]
      .map((file) => ({
        kind,
        label: relative(REPOSITORY, file),
        text: readFileSync(file, 'utf8'),
      }))
      .sort(
        (left, right) =>
          right.text.length - left.text.length || (left.label < right.label ? -1 : 1),
      )
      .slice(0, MAX_FILES_PER_KIND),
  );
}

const meanAbsoluteErrorPercent = (errors: readonly number[]) =>
  errors.length === 0
    ? Number.NaN
    : round(errors.reduce((sum, value) => sum + Math.abs(value), 0) / errors.length, 1);

/**
 * (c) The bytes/4 estimate against real BPE counts (o200k_base, cl100k_base) on the repository's own files and
 * the shipped prose fixtures: per file the ratio estimate/BPE, then per kind the mean absolute error in percent.
 */
export async function run(): Promise<BenchReport> {
  const o200k = await createBpeTokenizer('o200k_base');
  const cl100k = await createBpeTokenizer('cl100k_base');
  const files = corpus().filter((file) => file.text.length > 0);
  const rows: BenchReport['rows'] = [];
  const errors = new Map<string, { o200k: number[]; cl100k: number[] }>();
  const start = performance.now();
  for (const file of files) {
    const estimate = estimateTokenizer.count(file.text).tokens;
    const bpe = o200k.count(file.text).tokens;
    const bpeCl100k = cl100k.count(file.text).tokens;
    const errorsOfKind = errors.get(file.kind) ?? { o200k: [], cl100k: [] };
    errorsOfKind.o200k.push(((estimate - bpe) / bpe) * 100);
    errorsOfKind.cl100k.push(((estimate - bpeCl100k) / bpeCl100k) * 100);
    errors.set(file.kind, errorsOfKind);
    rows.push({
      file: file.label,
      kind: file.kind,
      bytes: Buffer.byteLength(file.text),
      estimate,
      o200k: bpe,
      cl100k: bpeCl100k,
      ratio_o200k: round(estimate / bpe, 2),
    });
  }
  const all = [...errors.values()];
  const summary = [...errors].map(([kind, kindErrors]) => {
    const signedMean = round(
      kindErrors.o200k.reduce((sum, value) => sum + value, 0) / kindErrors.o200k.length,
      1,
    );
    return (
      `${kind}: ${kindErrors.o200k.length} files, mean absolute error ${meanAbsoluteErrorPercent(kindErrors.o200k)}% ` +
      `vs o200k (signed ${signedMean}%), ${meanAbsoluteErrorPercent(kindErrors.cl100k)}% vs cl100k`
    );
  });
  return {
    name: 'tokenizer-accuracy',
    rows,
    notes: [
      ...summary,
      `all: mean absolute error ${meanAbsoluteErrorPercent(all.flatMap((kind) => kind.o200k))}% vs o200k over ${files.length} files`,
      'ratio > 1: the estimate counts more tokens than the model would (budgets err on the safe side); < 1: fewer',
      `BPE counting took ${Math.round(performance.now() - start)} ms in all; the corpus is the repository's own files and bench/fixtures/tokenizer`,
    ],
  };
}
