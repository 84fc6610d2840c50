import { performance } from 'node:perf_hooks';

/** Times `operation` `iterations` times after `warmup` untimed runs; returns each duration in milliseconds. */
export async function timeEach(
  operation: (index: number) => Promise<unknown>,
  iterations: number,
  warmup = Math.ceil(iterations / 10),
): Promise<number[]> {
  for (let index = 0; index < warmup; index += 1) await operation(-1 - index);
  const durations: number[] = [];
  for (let index = 0; index < iterations; index += 1) {
    const start = performance.now();
    await operation(index);
    durations.push(performance.now() - start);
  }
  return durations;
}

/** The nearest-rank percentile (0–100) of a list of numbers. */
export function percentile(values: readonly number[], rank: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(
    sorted.length - 1,
    Math.max(0, Math.ceil((rank / 100) * sorted.length) - 1),
  );
  return sorted[index]!;
}

export const round = (value: number, digits = 3) => Number(value.toFixed(digits));

/** p50, p99 and throughput of a list of durations, rounded for a table. */
export function summarise(durationsMs: readonly number[], itemsPerOperation = 1) {
  const totalMs = durationsMs.reduce((sum, value) => sum + value, 0);
  return {
    operations: durationsMs.length,
    p50_ms: round(percentile(durationsMs, 50)),
    p99_ms: round(percentile(durationsMs, 99)),
    items_per_s: Math.round((durationsMs.length * itemsPerOperation * 1000) / totalMs),
  };
}

/**
 * Times several operations in round-robin (one of each per round, while each still has iterations left), after
 * a warm-up of each. Interleaving spreads machine noise evenly over a baseline and what is compared with it.
 */
export async function timeInterleaved<Name extends string>(
  operations: Record<Name, () => Promise<unknown>>,
  iterations: Record<Name, number>,
): Promise<Record<Name, number[]>> {
  const names = Object.keys(operations) as Name[];
  const durations = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<
    Name,
    number[]
  >;
  for (const name of names)
    for (let index = 0; index < Math.ceil(iterations[name] / 10); index += 1)
      await operations[name]();
  const rounds = Math.max(...names.map((name) => iterations[name]));
  for (let round = 0; round < rounds; round += 1) {
    for (const name of names) {
      if (durations[name].length >= iterations[name]) continue;
      const start = performance.now();
      await operations[name]();
      durations[name].push(performance.now() - start);
    }
  }
  return durations;
}
