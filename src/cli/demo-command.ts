import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSettings } from './load-settings.ts';
import { createLogger } from '../config/logger.ts';
import type { CliIo } from './cli-io.ts';
import { serveCommand } from './serve-command.ts';

/** A shipped demo: its script (paced like a real model) and the steps the person follows in the browser. */
type Demo = { script: string; what: string; steps: string[] };

export const DEMOS: Record<string, Demo> = {
  criativo: {
    script: 'criativo-demo.json',
    what: "Criativo's part: two answers, a business rule, the product brief and a handoff to the PO",
    steps: [
      'Type a project name and press "Create project", then "Open session".',
      'Press "Start Criativo".',
      'Send a first message (any text) and watch the answer stream in.',
      'Once it is done, send a second one: the answer records a business rule (its card appears).',
      `Press "I'm ready to produce": the product brief appears, with a handoff to the PO.`,
      'Press "Accept": the demo scripts no PO, so the page says the PO could not answer.',
    ],
  },
  line: {
    script: 'production-line-demo.json',
    what: 'the whole production line: Criativo, the PO, the Arquiteto and two developer agents',
    steps: [
      'Type a project name and press "Create project", then "Open session".',
      'Press "Start Criativo".',
      'Send a first message (any text): the answer records a business rule.',
      'Once it is done, send a second one.',
      `Press "I'm ready to produce": the product brief appears, with a handoff to the PO.`,
      'Press "Accept" on the handoff to the PO: it writes the backlog and hands over to the Arquiteto.',
      'Press "Accept" on the Arquiteto\'s handoff: module map, contracts (the first ones refused, then corrected), tasks per module.',
      'Press "Accept" on each developer handoff: one developer reports a missing interface (the Arquiteto declares contracts v2), then a check of its module that verifies nothing (the Arquiteto declares map v2 with a check of its own), and finishes; the other is told what contracts v2 changed, gets the first module\'s code merged into its worktree once it merges into dev, commits its code and finishes its second task against the first one\'s commit.',
    ],
  },
};

/** Where the shipped scripts live, whatever the working directory. */
export const demoScriptPath = (name: string): string =>
  new URL(`../../examples/${DEMOS[name]!.script}`, import.meta.url).pathname;

/**
 * `forja demo [criativo|line]`: `forja serve` on a shipped script, its own embedded database (a fresh
 * directory unless FORJA_DATA_DIR names one), and on stdout the URL and what to click, step by step.
 * Returns the exit code; resolves when the server stops.
 */
export async function demoCommand(name: string, io: CliIo): Promise<number> {
  const demo = DEMOS[name];
  if (demo === undefined) {
    io.stderr(`forja: unknown demo "${name}"; choose one of: ${Object.keys(DEMOS).join(', ')}\n`);
    return 2;
  }
  const dataDirectory =
    io.env.FORJA_DATA_DIR || (await mkdtemp(join(tmpdir(), `forja-demo-${name}-`)));
  const env = {
    ...io.env,
    FORJA_MODEL: `scripted:${demoScriptPath(name)}`,
    FORJA_DATA_DIR: dataDirectory,
    DATABASE_URL: '',
    LOG_LEVEL: io.env.LOG_LEVEL || 'warn',
  };
  const loaded = loadSettings(env);
  if (!loaded.ok) {
    io.stderr(`forja: ${loaded.error.message}\n`);
    return 2;
  }
  return serveCommand(loaded.config, createLogger(loaded.config.logLevel), {
    env,
    stderr: io.stderr,
    onListening: (url) => {
      const steps = demo.steps.map((step, index) => `  ${index + 1}. ${step}`).join('\n');
      io.stdout(
        [
          `Forja demo "${name}": the scripted model of examples/${demo.script} plays ${demo.what}, streaming like a real model.`,
          `Data: ${dataDirectory} (embedded database; a restart with FORJA_DATA_DIR set to it goes on where it was)`,
          '',
          `Open ${url} and:`,
          steps,
          '',
          'Ctrl-C stops the demo.',
          '',
        ].join('\n'),
      );
    },
  });
}
