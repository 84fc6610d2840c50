import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { ForjaConfig } from '../config/config.ts';
import { loadSettings } from './load-settings.ts';
import { createLogger } from '../config/logger.ts';
import type { Database } from '../store/index.ts';
import { runGraphRebuildCommand } from './graph-command.ts';
import type { CliIo } from './cli-io.ts';
import { runRagRebuildCommand } from './rag-command.ts';
import { runSeedCommand, type SeedCommandOptions } from './seed-command.ts';
import { withConfiguredDatabase } from './with-configured-database.ts';

/** Registers `forja seed`, `forja graph rebuild` and `forja rag rebuild` (record ADR 0101). */
export function registerMemoryCommands(
  program: Command,
  io: CliIo,
  setExitCode: (code: number) => void,
): void {
  const onDatabase =
    (command: string, run: (database: Database, config: ForjaConfig) => Promise<number>) =>
    async () => {
      const loaded = loadSettings(io.env);
      if (!loaded.ok) {
        io.stderr(`forja: ${loaded.error.message}\n`);
        setExitCode(2);
        return;
      }
      setExitCode(
        await withConfiguredDatabase(loaded.config, command, io, (database) =>
          run(database, loaded.config),
        ),
      );
    };

  program
    .command('seed')
    .description(
      'Write the prompt templates into the graph (idempotent; a new body becomes the next version)',
    )
    .option(
      '--template <name=file>',
      'also seed this template from a file (repeatable)',
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .action((options: SeedCommandOptions) =>
      onDatabase('seed', (database) =>
        runSeedCommand(options, database, {
          readFile: (path) => readFile(path, 'utf8'),
          stdout: io.stdout,
          stderr: io.stderr,
        }),
      )(),
    );

  const graph = program.command('graph').description('The relational memory graph');
  graph
    .command('rebuild')
    .description('Empty the graph projection and replay the event log into it')
    .action(onDatabase('graph rebuild', (database) => runGraphRebuildCommand(database, io)));

  const rag = program.command('rag').description('The RAG index of project fragments');
  rag
    .command('rebuild')
    .description(
      'Embed every artifact, agent response and workspace document again and replace the index',
    )
    .action(
      onDatabase('rag rebuild', (database, config) =>
        runRagRebuildCommand(database, config, io.env, createLogger(config.logLevel), io),
      ),
    );
}
