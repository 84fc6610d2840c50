/** What every benchmark module returns; the runner prints it as a table and writes it as JSON. */
export interface BenchReport {
  name: string;
  rows: Array<Record<string, string | number>>;
  notes?: string[];
}

export type BenchModule = { run(): Promise<BenchReport> };
