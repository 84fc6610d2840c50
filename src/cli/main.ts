import { Command, CommanderError } from 'commander';
import { loadSettings } from './load-settings.ts';
import { createLogger } from '../config/logger.ts';
import { FORJA_VERSION } from '../config/version.ts';
import {
  DataDirectoryInUseError,
  DataDirectoryMismatchError,
  DataDirectoryUnusableError,
} from '../store/index.ts';
import type { CliIo } from './cli-io.ts';
import { runContextCommandWithDatabase } from './context-with-database.ts';
import type { ContextCommandOptions } from './context-command.ts';
import { registerAccountCommands } from './account-commands.ts';
import { demoCommand } from './demo-command.ts';
import { runSessionContextCommand } from './session-context-command.ts';
import { registerMemoryCommands } from './memory-commands.ts';
import { serveCommand } from './serve-command.ts';
import { runStatusCommand, type StatusOptions } from './status-command.ts';

/** Exit codes: 0 done, 1 failed while running, 2 bad usage or configuration (the line printed says which). */
export const EXIT_USAGE = 2;

const defaultIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  stdin: () => readStdin(),
  stdinIsTerminal: process.stdin.isTTY === true,
};

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
    .description(
      'Run the HTTP API and web UI (embedded PGlite under ./.forja unless DATABASE_URL is set)',
    )
    .action(async () => {
      const loaded = loadSettings(io.env);
      if (!loaded.ok) {
        io.stderr(`forja: ${loaded.error.message}\n`);
        exitCode = EXIT_USAGE;
        return;
      }
      exitCode = await serveCommand(loaded.config, createLogger(loaded.config.logLevel), {
        stderr: io.stderr,
      });
    });

  program
    .command('demo')
    .description(
      'Serve a shipped demo on a scripted model, paced like a real one, and print what to click',
    )
    .argument(
      '[name]',
      'criativo (Criativo up to the brief) or line (the whole production line)',
      'line',
    )
    .action(async (name: string) => {
      exitCode = await demoCommand(name, io);
    });

  program
    .command('context')
    .description(
      'Show the prompt the harness assembles for an agent: each layer with its budget, tokens and what was cut',
    )
    .option('--workspace <dir>', 'the workspace whose AGENTS.md files are read')
    .option(
      '--session <id>',
      "instead: exactly what the agent's next call in this session sends (history, compaction point, tokens)",
    )
    .requiredOption(
      '--agent <slug>',
      'the agent (criativo, po, arquiteto, dev, dev:<module>, psicologo, anamnese)',
    )
    .option(
      '--project <id>',
      "also read the agent's instruction patch of this project from the database",
    )
    .option('--context-file <file>', 'text of the contexto_projeto layer')
    .option(
      '--rules-file <file>',
      'JSON array of {id, text} business rules, oldest first (regras_negocio)',
    )
    .option('--task-file <file>', 'text of the estado_tarefa layer')
    .option(
      '--budget <layer=tokens>',
      'override a layer budget (repeatable)',
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option(
      '--tokenizer <name>',
      "estimate, conservative, bpe (o200k_base) or bpe:cl100k_base (default: the server's, FORJA_TOKENIZER or the model's)",
    )
    .option(
      '--scope <dir>',
      'the directory (relative to the workspace) the agent works in: the instruction files on the path to it',
    )
    .option(
      '--window <tokens>',
      "the model's context window: the instruction layer's budget follows it",
    )
    .option('--json', 'print the assembly report as one JSON object')
    .action(async (options: ContextCommandOptions) => {
      exitCode = await contextCommand(options, io);
    });

  program
    .command('status')
    .description(
      'Which Forja processes are alive; per session the messages and kickoffs waiting, turns running, tokens reserved; the outbox lag',
    )
    .option('--json', 'print the status as one JSON object')
    .action(async (options: StatusOptions) => {
      const loaded = loadSettings(io.env);
      if (!loaded.ok) {
        io.stderr(`forja: ${loaded.error.message}\n`);
        exitCode = EXIT_USAGE;
        return;
      }
      exitCode = await runStatusCommand(options, loaded.config, io);
    });

  registerMemoryCommands(program, io, (code) => {
    exitCode = code;
  });
  registerAccountCommands(program, io, (code) => {
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
  // A data directory that cannot be created is a setting to change: the usage exit code, like any bad setting.
  if (error instanceof DataDirectoryUnusableError) {
    io.stderr(`forja: ${error.message}\n`);
    return EXIT_USAGE;
  }
  // Another data directory than the database's: a setting to change, like any bad setting.
  if (error instanceof DataDirectoryMismatchError) {
    io.stderr(`forja: ${error.message}\n`);
    return EXIT_USAGE;
  }
  if (error instanceof DataDirectoryInUseError) {
    io.stderr(`forja: ${error.message}\n`);
    return 1;
  }
  io.stderr(`forja: ${error instanceof Error ? error.message : String(error)}\n`);
  return 1;
}

async function contextCommand(options: ContextCommandOptions, io: CliIo): Promise<number> {
  const loaded = loadSettings(io.env);
  if (!loaded.ok) {
    io.stderr(`forja: ${loaded.error.message}\n`);
    return EXIT_USAGE;
  }
  if (options.session !== undefined)
    return runSessionContextCommand(
      {
        session: options.session,
        ...(options.agent === undefined ? {} : { agent: options.agent }),
        ...(options.json ? { json: true } : {}),
      },
      loaded.config,
      io,
    );
  return runContextCommandWithDatabase(options, loaded.config, io);
}

/** All of stdin; on a terminal, one line typed without echo (a password). */
async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return readHiddenLine();
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function readHiddenLine(): Promise<string> {
  return new Promise((resolve, reject) => {
    let line = '';
    const done = (finish: () => void) => {
      process.stdin.setRawMode(false);
      process.stdin.pause();
      process.stdin.off('data', onData);
      process.stderr.write('\n');
      finish();
    };
    const onData = (chunk: Buffer) => {
      for (const character of chunk.toString('utf8')) {
        if (character === '\r' || character === '\n') return done(() => resolve(line));
        if (character === '\u0003') return done(() => reject(new Error('cancelled')));
        line = character === '\u007f' || character === '\b' ? line.slice(0, -1) : line + character;
      }
    };
    process.stdin.setRawMode(true);
    process.stdin.resume();
    process.stdin.on('data', onData);
  });
}
