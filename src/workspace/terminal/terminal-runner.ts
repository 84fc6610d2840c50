import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clearSetIdBits } from './clear-set-id-bits.ts';
import { readHostRoots } from './host-roots.ts';
import { runProcess, type ProcessResult } from './run-process.ts';
import { sandboxArguments, scrubbedEnvironment, type HostRootEntry } from './sandbox-arguments.ts';
import {
  parseSandboxTools,
  SANDBOX_TOOLS,
  SANDBOX_TOOLS_COMMAND,
  type SandboxTools,
} from './sandbox-tools.ts';
import type { TerminalSettings } from './terminal-settings.ts';

export const DEFAULT_BUBBLEWRAP_PATH = '/usr/bin/bwrap';

/** A command's run, or why it was not run. */
export type TerminalOutcome =
  | ({ ok: true; sandboxed: boolean } & ProcessResult)
  | { ok: false; reason: string };

/** Whether commands can be sandboxed here, found once. */
export type SandboxProbe = { available: true } | { available: false; reason: string };

export interface TerminalRunner {
  readonly settings: TerminalSettings;
  probe(): Promise<SandboxProbe>;
  run(worktree: string, command: string): Promise<TerminalOutcome>;
  /** The versions of node, npm and python3 a command meets, looked for once in the sandbox and kept. */
  tools(): Promise<SandboxTools>;
}

/**
 * Runs dev commands in the worktree inside a bubblewrap sandbox (no network, only the worktree writable),
 * with a time limit, an output cap and a scrubbed environment. Whether the sandbox can be made is probed
 * once, by making one; when it cannot, commands are refused with the reason unless the settings
 * explicitly allow running them without it.
 */
export function createTerminalRunner(
  settings: TerminalSettings,
  options: { bubblewrapPath?: string } = {},
): TerminalRunner {
  const bubblewrap = options.bubblewrapPath ?? DEFAULT_BUBBLEWRAP_PATH;
  let probed: Promise<{ probe: SandboxProbe; roots: HostRootEntry[] }> | null = null;
  const probeOnce = () => (probed ??= probeSandbox(bubblewrap, settings));
  let tools: Promise<SandboxTools> | null = null;
  const runner: TerminalRunner = {
    settings,
    probe: async () => (await probeOnce()).probe,
    tools: () => (tools ??= findTools(runner)),
    async run(worktree, command) {
      const { probe, roots } = await probeOnce();
      const limits = { timeoutMs: settings.timeoutMs, outputLimitBytes: settings.outputLimitBytes };
      if (probe.available) {
        const result = await runProcess({
          file: bubblewrap,
          args: sandboxArguments(worktree, command, roots),
          cwd: worktree,
          env: scrubbedEnvironment('/tmp'),
          ...limits,
        });
        await clearSetIdBits(worktree);
        return { ok: true, sandboxed: true, ...result };
      }
      if (!settings.allowUnsandboxed) {
        return {
          ok: false,
          reason: `terminal refused: the sandbox could not be made (${probe.reason}), and this Forja does not run commands without it (FORJA_TERMINAL_ALLOW_UNSANDBOXED is not true). Nothing was run.`,
        };
      }
      return {
        ok: true,
        sandboxed: false,
        ...(await runProcess({
          file: '/bin/sh',
          args: ['-c', command],
          cwd: worktree,
          env: scrubbedEnvironment(worktree),
          ...limits,
        })),
      };
    },
  };
  return runner;
}

/** Runs SANDBOX_TOOLS_COMMAND in a scratch directory as every command runs. */
async function findTools(runner: TerminalRunner): Promise<SandboxTools> {
  const scratch = await mkdtemp(join(tmpdir(), 'forja-sandbox-tools-'));
  try {
    const outcome = await runner.run(scratch, SANDBOX_TOOLS_COMMAND);
    if (outcome.ok && outcome.startError === null) return parseSandboxTools(outcome.output);
    const why = outcome.ok ? (outcome.startError ?? '') : outcome.reason;
    const versions = Object.fromEntries(SANDBOX_TOOLS.map((tool) => [tool, null]));
    return { versions: versions as SandboxTools['versions'], unknown: why };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function probeSandbox(
  bubblewrap: string,
  settings: TerminalSettings,
): Promise<{ probe: SandboxProbe; roots: HostRootEntry[] }> {
  const roots = await readHostRoots();
  const scratch = await mkdtemp(join(tmpdir(), 'forja-sandbox-probe-'));
  try {
    const result = await runProcess({
      file: bubblewrap,
      args: sandboxArguments(scratch, 'true', roots),
      cwd: scratch,
      env: scrubbedEnvironment('/tmp'),
      timeoutMs: Math.min(settings.timeoutMs, 10_000),
      outputLimitBytes: 4096,
    });
    if (result.startError !== null)
      return {
        probe: {
          available: false,
          reason: `${bubblewrap} cannot be started: ${result.startError}`,
        },
        roots,
      };
    if (result.exitCode !== 0)
      return {
        probe: {
          available: false,
          reason: `${bubblewrap} failed (exit ${result.exitCode ?? result.signal}): ${result.output.trim().slice(0, 300)}`,
        },
        roots,
      };
    return { probe: { available: true }, roots };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
