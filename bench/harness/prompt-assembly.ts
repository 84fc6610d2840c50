import { performance } from 'node:perf_hooks';
import { devDefinition } from '../../src/agents/dev/dev-definition.ts';
import {
  assemblePrompt,
  type PromptLayerInputs,
  type PromptUnit,
} from '../../src/harness/index.ts';
import type { BenchReport } from '../lib/bench-report.ts';
import { percentile, round } from '../lib/latency.ts';

const SIZES = [
  { label: '256 KiB', bytes: 256 * 1024, iterations: 400 },
  { label: '1 MiB', bytes: 1024 * 1024, iterations: 200 },
  { label: '4 MiB', bytes: 4 * 1024 * 1024, iterations: 60 },
];
const PARAGRAPH =
  'O Criativo conversa com a pessoa sobre a padaria que entrega pão de madrugada — assinatura mensal, ' +
  'rotas por bairro, 🥖 e pagamento na entrega. Cada regra confirmada vira um evento; nada se perde. ';

// Text of exactly `bytes` UTF-8 bytes (give or take one character), as a flat string, the way text read
// from a file or the database arrives: `repeat` alone would give a rope that V8 flattens on first use.
function textOf(bytes: number, seed: number): string {
  const encoded = new TextEncoder().encode(
    `${seed} ${PARAGRAPH.repeat(Math.ceil(bytes / PARAGRAPH.length) + 1)}`,
  );
  return new TextDecoder().decode(encoded.subarray(0, bytes)).replace(/\uFFFD$/, '');
}

function unitsOf(totalBytes: number, unitBytes: number, prefix: string): PromptUnit[] {
  const count = Math.max(1, Math.floor(totalBytes / unitBytes));
  return Array.from({ length: count }, (_, index) => ({
    id: `${prefix}-${index}`,
    text: textOf(unitBytes, index),
  }));
}

/** Five layers from `bytes` of input: a quarter instruction files, half project context, a fifth rules, the rest task state. */
function inputsOf(bytes: number): PromptLayerInputs {
  return {
    agent: 'dev',
    identidade: devDefinition.identity,
    instruction_files: unitsOf(
      bytes * 0.25,
      Math.max(1024, Math.floor((bytes * 0.25) / 16)),
      'dir/AGENTS.md',
    ),
    contexto_projeto: textOf(bytes * 0.5, 1),
    regras_negocio: unitsOf(bytes * 0.2, 512, 'br'),
    estado_tarefa: textOf(bytes * 0.05, 2),
  };
}

/**
 * (b) assemblePrompt on five layers built from 256 KiB, 1 MiB and 4 MiB of input with the default budgets
 * and the default (estimate) tokenizer: median and p95, and milliseconds per MiB to show it grows linearly.
 */
export async function run(): Promise<BenchReport> {
  const rows: BenchReport['rows'] = [];
  for (const size of SIZES) {
    const inputs = inputsOf(size.bytes);
    for (let index = 0; index < Math.ceil(size.iterations / 4); index++) assemblePrompt(inputs);
    const durations: number[] = [];
    let promptTokens = 0;
    for (let index = 0; index < size.iterations; index++) {
      const start = performance.now();
      promptTokens = assemblePrompt(inputs).total_tokens;
      durations.push(performance.now() - start);
    }
    const median = percentile(durations, 50);
    rows.push({
      input: size.label,
      iterations: size.iterations,
      median_ms: round(median),
      p95_ms: round(percentile(durations, 95)),
      ms_per_mib: round(median / (size.bytes / (1024 * 1024))),
      prompt_tokens: promptTokens,
    });
  }
  const medianOf = (label: string) => Number(rows.find((row) => row.input === label)?.median_ms);
  const marginal = round((medianOf('4 MiB') - medianOf('1 MiB')) / 3);
  return {
    name: 'prompt-assembly',
    rows,
    notes: [
      `marginal cost between 1 and 4 MiB: ${marginal} ms per MiB; below ~1 MiB a fixed part dominates ` +
        '(cutting and joining the ~15k tokens kept, whatever the input size)',
      'input split: 25% instruction files (16 units), 50% project context, 20% business rules (512-byte units), 5% task state',
      'text mixes 1-, 2-, 3- and 4-byte UTF-8 characters; default budgets and the bytes/4 estimate tokenizer',
      'target: median under 5 ms for 1 MiB, ms_per_mib roughly constant across sizes (linear)',
    ],
  };
}
