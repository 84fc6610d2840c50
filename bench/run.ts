import { availableParallelism, loadavg } from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { BenchModule, BenchReport } from './lib/bench-report.ts';

/**
 * `npm run bench [-- NAME ...]`: runs the benchmarks (all, or those whose name contains one of the words),
 * prints a table each and writes bench/results/<name>.json. Benchmarks are not tests: nothing fails on time.
 */
const BENCHMARKS: Record<string, () => Promise<BenchModule>> = {
  'event-append': () => import('./store/event-append.ts'),
  'instruction-discovery': () => import('./harness/instruction-discovery.ts'),
  'prompt-assembly': () => import('./harness/prompt-assembly.ts'),
  'tokenizer-accuracy': () => import('./harness/tokenizer-accuracy.ts'),
  'provider-overhead': () => import('./gateway/provider-overhead.ts'),
  'graph-projection': () => import('./memory/graph-projection.ts'),
  'rag-search': () => import('./memory/rag-search.ts'),
  'rag-questions': () => import('./memory/rag-questions.ts'),
  'pglite-memory': () => import('./store/pglite-memory.ts'),
  'sse-streaming': () => import('./conversation/sse-streaming.ts'),
  'message-to-first-delta': () => import('./conversation/message-to-first-delta.ts'),
  'conversation-growth': () => import('./conversation/conversation-growth.ts'),
  'line-parallelism': () => import('./conversation/line-parallelism.ts'),
  'line-overhead': () => import('./conversation/line-overhead.ts'),
  'dev-request-size': () => import('./conversation/dev-request-size.ts'),
  'drain-event-loop': () => import('./memory/drain-event-loop.ts'),
  'projection-lag': () => import('./memory/projection-lag.ts'),
  'session-fold': () => import('./web/session-fold.ts'),
  'output-memory': () => import('./conversation/output-memory.ts'),
  'demo-line-cost': () => import('./gateway/demo-line-cost.ts'),
  'serve-startup': () => import('./cli/serve-startup.ts'),
};

const filters = process.argv.slice(2);
const selected = Object.entries(BENCHMARKS).filter(
  ([name]) => filters.length === 0 || filters.some((word) => name.includes(word)),
);
if (selected.length === 0) {
  console.error(
    `No benchmark matches ${filters.join(' ')}; known: ${Object.keys(BENCHMARKS).join(', ')}`,
  );
  process.exit(2);
}

const resultsDirectory = new URL('./results/', import.meta.url);
mkdirSync(resultsDirectory, { recursive: true });
for (const [name, load] of selected) {
  console.log(`\n## ${name}`);
  // Other work on the machine slows every row alike; the figures are read beside this.
  const loadAverage = loadavg().map((value) => Math.round(value * 100) / 100);
  const report = await (await load()).run();
  printTable(report);
  const file = new URL(`${name}.json`, resultsDirectory);
  writeFileSync(
    file,
    `${JSON.stringify({ ...report, measured_at: new Date().toISOString(), load_average_at_start: loadAverage, cores: availableParallelism(), node: process.version, platform: `${process.platform}-${process.arch}` }, null, 2)}\n`,
  );
  console.log(`(written to bench/results/${name}.json)`);
}

function printTable(report: BenchReport): void {
  const columns = [...new Set(report.rows.flatMap((row) => Object.keys(row)))];
  const cells = report.rows.map((row) => columns.map((column) => String(row[column] ?? '')));
  const widths = columns.map((column, index) =>
    Math.max(column.length, ...cells.map((line) => line[index]!.length)),
  );
  const line = (values: string[]) =>
    `| ${values.map((value, index) => value.padEnd(widths[index]!)).join(' | ')} |`;
  console.log(line(columns));
  console.log(line(widths.map((width) => '-'.repeat(width))));
  for (const values of cells) console.log(line(values));
  for (const note of report.notes ?? []) console.log(`- ${note}`);
}
