import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchReport } from '../lib/bench-report.ts';
import { buildPgliteTemplate } from '../../src/store/pglite-template.ts';

const ROUNDS = 5;
const FORJA = fileURLToPath(new URL('../../bin/forja.ts', import.meta.url));

/**
 * `forja serve` on an empty data directory, from the spawn to its "listening" line, the process Node starts
 * included: from the template `npm ci` builds (ADR 0425) against PGlite's initdb (`FORJA_PGLITE_TEMPLATE=off`),
 * interleaved round by round. Then the same data directory started again (the everyday start).
 */
export async function run(): Promise<BenchReport> {
  await buildPgliteTemplate();
  const times: Record<string, number[]> = { template: [], initdb: [], existing: [] };
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const mode of ['template', 'initdb'] as const) {
      const directory = mkdtempSync(join(tmpdir(), 'forja-startup-'));
      try {
        times[mode]!.push(await timeServe(directory, mode === 'template'));
        if (mode === 'template') times.existing!.push(await timeServe(directory, true));
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
  const row = (start: string, values: number[]) => ({
    start,
    median_ms: Math.round(median(values)),
    min_ms: Math.round(Math.min(...values)),
    max_ms: Math.round(Math.max(...values)),
  });
  return {
    name: 'serve-startup',
    rows: [
      row('empty data directory, from the template (today)', times.template!),
      row('empty data directory, initdb (before; FORJA_PGLITE_TEMPLATE=off)', times.initdb!),
      row('existing data directory', times.existing!),
    ],
    notes: [
      `${ROUNDS} rounds, interleaved; each a new \`node bin/forja.ts serve\` on PORT=0, timed to its "listening" log line.`,
    ],
  };
}

function timeServe(dataDirectory: string, template: boolean): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [FORJA, 'serve'], {
    env: {
      ...process.env,
      PORT: '0',
      FORJA_DATA_DIR: dataDirectory,
      FORJA_PGLITE_TEMPLATE: template ? 'on' : 'off',
      DATABASE_URL: '',
      FORJA_MODEL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    // The log goes to stderr; read both, so a change of stream does not hang the bench.
    const read = (chunk: Buffer) => {
      const listening = output.includes('Forja is listening');
      output += chunk.toString();
      if (listening || !output.includes('Forja is listening')) return;
      const elapsed = performance.now() - started;
      child.once('exit', () => resolve(elapsed));
      child.kill('SIGTERM');
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      if (!output.includes('Forja is listening'))
        reject(new Error(`forja serve exited (${code}) before listening: ${output.slice(-500)}`));
    });
  });
}
