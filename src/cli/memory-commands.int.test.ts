import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './main.ts';

/** The commands wired in `forja` itself, on an embedded database of their own (one process at a time). */
describe('forja seed, graph rebuild and rag rebuild on the embedded database', () => {
  let dataDirectory: string;
  beforeAll(async () => {
    dataDirectory = await mkdtemp(path.join(tmpdir(), 'forja-cli-memory-'));
  });
  afterAll(() => rm(dataDirectory, { recursive: true, force: true }));

  async function run(...argv: string[]) {
    return runIn(dataDirectory, ...argv);
  }
  async function runIn(directory: string, ...argv: string[]) {
    let stdout = '';
    let stderr = '';
    const code = await runCli(argv, {
      env: { FORJA_DATA_DIR: directory, LOG_LEVEL: 'silent' },
      stdout: (text) => void (stdout += text),
      stderr: (text) => void (stderr += text),
    });
    return { code, stdout, stderr };
  }

  // Four opens of the embedded database one after the other: seconds each on a busy machine, so no 30 s cap.
  it('seeds, rebuilds an empty graph and an empty index, and says what it did', {
    timeout: 180_000,
  }, async () => {
    expect(await run('seed')).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('psicologo-kickoff: created v1'),
    });
    expect(await run('graph', 'rebuild')).toEqual({
      code: 0,
      stdout: 'graph rebuilt from 0 events: 0 recorded, 0 skipped\n',
      stderr: '',
    });
    expect(await run('rag', 'rebuild')).toEqual({
      code: 0,
      stdout:
        'RAG index rebuilt: 0 fragments in 0 chunks (embedder hashed-ngram-256, search hnsw)\n',
      stderr: '',
    });
    expect(await run('seed')).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('psicologo-kickoff: unchanged (v1)'),
    });
  });

  it('refuses bad usage with exit code 2', { timeout: 120_000 }, async () => {
    // A data directory of its own: what another test left running never holds its lock.
    const own = await mkdtemp(path.join(tmpdir(), 'forja-cli-usage-'));
    try {
      expect((await runIn(own, 'seed', '--template', 'x')).code).toBe(2);
      expect((await runIn(own, 'graph', 'nope')).code).toBe(2);
    } finally {
      await rm(own, { recursive: true, force: true });
    }
  });
});
