/**
 * One run of the `pglite-memory` benchmark, in a process of its own so that nothing before it is in its RSS:
 * opens PGlite on its worker thread the way `openDatabase` does (a copy of the template, then the migrations),
 * stage by stage, and prints the process's RSS after each as one JSON line. Run by `pglite-memory.ts`:
 * `node pglite-memory-probe.ts '{"sharedBuffers":"16MB","template":true}'`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import {
  createLocalEmbedder,
  createPostgresVectorIndex,
  embedLocally,
  graphProjectionRule,
  LOCAL_EMBEDDER_NAME,
  ragIndexRule,
  ragSearch,
} from '../../src/memory/index.ts';
import { SESSION_EVENTS } from '../../src/domain/conversation/index.ts';
import { createEventLog, createProject, createSession } from '../../src/store/index.ts';
import { migrate } from '../../src/store/migrations/migrate.ts';
import { openPgliteWorkerDatabase } from '../../src/store/pglite-worker-database.ts';
import { startFromTemplate } from '../../src/store/pglite-template.ts';
import { syntheticCorpus } from '../memory/synthetic-corpus.ts';
import type { ProbeResult, ProbeSettings, Stage } from './pglite-memory.ts';

const settings = JSON.parse(process.argv[2] ?? '{}') as ProbeSettings;
const megabytes = (field: 'VmRSS' | 'VmHWM') => {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kilobytes = new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1];
  return Math.round(Number(kilobytes) / 1024);
};
const result: Partial<ProbeResult> = {};
/**
 * Each stage is read once RSS has settled (two readings 250 ms apart within 2 MB, 10 s at most): after PGlite
 * opens, V8 optimises its WebAssembly in the background for a second or so, using memory it then gives back.
 */
const stage = async (name: Stage) => {
  let last = megabytes('VmRSS');
  for (let waited = 0; waited < 10_000; waited += 250) {
    await sleep(250);
    const now = megabytes('VmRSS');
    if (Math.abs(now - last) <= 2) break;
    last = now;
  }
  result[name] = megabytes('VmRSS');
};

await stage('node');
// A worker thread that does nothing: what a thread of its own costs before PGlite is in it.
const bareWorker = new Worker(
  "require('node:worker_threads').parentPort.on('message', () => {});",
  {
    eval: true,
  },
);
await new Promise((ready) => bareWorker.once('online', ready));
await stage('bare_worker');

const directory = mkdtempSync(join(tmpdir(), 'forja-pglite-memory-'));
try {
  const pgdata = join(directory, 'pgdata');
  if (settings.template) startFromTemplate(pgdata);
  const database = await openPgliteWorkerDatabase({
    dataDirectory: pgdata,
    ...(settings.sharedBuffers === undefined ? {} : { sharedBuffers: settings.sharedBuffers }),
  });
  await stage('pglite_open');
  await migrate(database);
  await stage('migrated');
  // Postgres loads an extension's library when a statement first uses it.
  await database.query(`select '[1,2,3]'::vector <=> '[1,2,4]'::vector as distance`);
  await database.query(`select unaccent('ação') as folded`);
  await stage('extensions');

  // Some work: a session's appends with production's outbox rules, a project's RAG index and its searches.
  const project = await createProject(database, { name: 'memory' });
  const session = await createSession(database, { projectId: project.id });
  const eventLog = createEventLog(database, [graphProjectionRule, ragIndexRule]);
  for (let index = 0; index < settings.appends; index += 1)
    await eventLog.append(session.id, [
      SESSION_EVENTS.chatMessage.create('user', { v: 1, text: `message ${index}` }),
    ]);
  const corpus = syntheticCorpus({ chunks: settings.chunks, queries: settings.searches });
  const index = await createPostgresVectorIndex(database);
  for (let at = 0; at < corpus.chunks.length; at += 500)
    await index.upsert(
      corpus.chunks.slice(at, at + 500).map((text, offset) => ({
        id: `chunk-${at + offset}#0`,
        projectId: project.id,
        sourceKind: 'artifact',
        sourceId: `chunk-${at + offset}`,
        sourceLabel: `artifact.bench #${at + offset}`,
        chunkIndex: 0,
        text,
        embedder: LOCAL_EMBEDDER_NAME,
        embedding: embedLocally(text),
      })),
    );
  const embedder = createLocalEmbedder();
  for (const query of corpus.queries)
    await ragSearch({ embedder, index }, project.id, { query, k: 10 });
  await stage('worked');
  await sleep(3000);
  result.rest = megabytes('VmRSS');
  result.peak = megabytes('VmHWM');
  await database.close();
} finally {
  await bareWorker.terminate();
  rmSync(directory, { recursive: true, force: true });
}
process.stdout.write(`${JSON.stringify(result)}\n`);
