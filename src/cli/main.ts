import { Command, CommanderError } from 'commander';
import { loadConfig } from '../config/config.ts';
import { createLogger } from '../config/logger.ts';
import { FORJA_VERSION } from '../config/version.ts';
import { DataDirectoryInUseError } from '../store/index.ts';
import { runContextCommandWithDatabase } from './context-with-database.ts';
import type { ContextCommandOptions } from './context-command.ts';
import { registerMemoryCommands } from './memory-commands.ts';
import { serveCommand } from './serve-command.ts';

/** Exit codes: 0 done, 1 failed while running, 2 bad usage or configuration (the line printed says which). */
export const EXIT_USAGE = 2;

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
}

const defaultIo: CliIo = { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text), env: process.env };

/** The `forja` command line. Returns the exit code instead of exiting, so it can be tested in-process. */
export async function runCli(argv: readonly string[], io: CliIo = defaultIo): Promise<number> {
  let exitCode = 0;
  const program = new Command('forja')
    .description('Forja — a self-hosted AI software factory')
    .version(FORJA_VERSION)
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });

  program
    .command('serve')
    .description('Run the HTTP API and web UI (embedded PGlite under ./.forja unless DATABASE_URL is set)')
    .action(async () => {
      const loaded = loadConfig(io.env);
      if (!loaded.ok) {
        io.stderr(`forja: ${loaded.error.message}\n`);
        exitCode = EXIT_USAGE;
        return;
      }
      await serveCommand(loaded.config, createLogger(loaded.config.logLevel));
    });

  program
    .command('context')
    .description('Show the prompt the harness assembles for an agent: each layer with its budget, tokens and what was cut')
    .requiredOption('--workspace <dir>', 'the workspace whose AGENTS.md files are read')
    .requiredOption('--agent <slug>', 'the agent (criativo, po, arquiteto, dev, dev:<module>, psicologo, anamnese, ux-designer)')
    .option('--project <id>', "also read the agent's instruction patch of this project from the database")
    .option('--context-file <file>', 'text of the contexto_projeto layer')
    .option('--rules-file <file>', 'JSON array of {id, text} business rules, oldest first (regras_negocio)')
    .option('--task-file <file>', 'text of the estado_tarefa layer')
    .option('--budget <layer=tokens>', 'override a layer budget (repeatable)', (value: string, previous: string[]) => [...previous, value], [] as string[])
    .option('--tokenizer <name>', "estimate, conservative, bpe (o200k_base) or bpe:cl100k_base (default: the server's, FORJA_TOKENIZER or the model's)")
    .option('--scope <dir>', 'the directory (relative to the workspace) the agent works in: the instruction files on the path to it')
    .option('--window <tokens>', "the model's context window: the instruction layer's budget follows it")
    .option('--json', 'print the assembly report as one JSON object')
    .action(async (options: ContextCommandOptions) => {
      exitCode = await contextCommand(options, io);
    });

  registerMemoryCommands(program, io, (code) => {
    exitCode = code;
  });

  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    return reportFailure(error, io);
  }
}

function reportFailure(error: unknown, io: CliIo): number {
  if (error instanceof CommanderError) {
    // --help and --version end through here too, with exit code 0.
    return error.exitCode === 0 ? 0 : EXIT_USAGE;
  }
  if (error instanceof DataDirectoryInUseError) {
    io.stderr(`forja: ${error.message}\n`);
    return 1;
  }
  io.stderr(`forja: ${error instanceof Error ? error.message : String(error)}\n`);
  return 1;
}

async function contextCommand(options: ContextCommandOptions, io: CliIo): Promise<number> {
  const loaded = loadConfig(io.env);
  if (!loaded.ok) {
    io.stderr(`forja: ${loaded.error.message}\n`);
    return EXIT_USAGE;
  }
  return runContextCommandWithDatabase(options, loaded.config, io);
}
