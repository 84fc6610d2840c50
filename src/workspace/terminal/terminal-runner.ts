import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { countSpawn } from '../spawn/spawn-counts.ts';
import { constants } from 'node:fs';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { clearSetIdBits } from './clear-set-id-bits.ts';
import { readHostRoots } from './host-roots.ts';
import {
  type CgroupParent,
  createSandboxCgroups,
  findCgroupParents,
  type SandboxCgroups,
} from './sandbox-cgroups.ts';
import { runProcess, type ProcessRequest, type ProcessResult } from './run-process.ts';
import { sandboxArguments, scrubbedEnvironment, type HostRootEntry } from './sandbox-arguments.ts';
import {
  parseSandboxTools,
  SANDBOX_TOOLS,
  SANDBOX_TOOLS_COMMAND,
  type SandboxTools,
} from './sandbox-tools.ts';
import { limitCommand } from '../../domain/terminal/index.ts';
import type { TerminalSettings } from './terminal-settings.ts';

export const DEFAULT_BUBBLEWRAP_PATH = '/usr/bin/bwrap';

/** A command's run, or why it was not run. */
export type TerminalOutcome =
  | ({ ok: true; sandboxed: boolean; oomKills: number } & ProcessResult)
  | { ok: false; reason: string };

/** Whether commands can be sandboxed here, found once. */
export type SandboxProbe = { available: true } | { available: false; reason: string };

export interface TerminalRunner {
  readonly settings: TerminalSettings;
  probe(): Promise<SandboxProbe>;
  /** What the probe found, once it has run; null before (a decision that needs it must not assume it works). */
  probed(): SandboxProbe | null;
  /** `signal` aborted (the turn was stopped): the command and every process it started are killed. */
  run(
    worktree: string,
    command: string,
    options?: { signal?: AbortSignal },
  ): Promise<TerminalOutcome>;
  /** The versions of node, npm and python3 a command meets, looked for once in the sandbox and kept. */
  tools(): Promise<SandboxTools>;
  /**
   * Starts a long-running command (an MCP server, ADR 0410) in the worktree as `run` would run it — in the
   * sandbox, under the same limits and cgroups, with the same scrubbed environment — its stdin and stdout
   * piped to Forja; or why it could not be started.
   */
  start(worktree: string, command: string): Promise<StartedProcess | { ok: false; reason: string }>;
}

/** A process `start` started: its pipes, and a kill of its whole group. Its cgroups go when it exits. */
export interface StartedProcess {
  ok: true;
  child: ChildProcessByStdio<Writable, Readable, Readable>;
  kill(): void;
}

type Probed = { probe: SandboxProbe; roots: HostRootEntry[]; cgroups: CgroupParent[] };

/**
 * Runs dev commands in the worktree inside a bubblewrap sandbox (no network, only the worktree writable),
 * with a time limit, an output cap, a scrubbed environment and the settings' limits (ADR 0310). Whether the
 * sandbox can be made is probed once, by making one; when it cannot, commands are refused with the reason
 * unless the settings explicitly allow running them without it.
 */
export function createTerminalRunner(
  settings: TerminalSettings,
  options: { bubblewrapPath?: string } = {},
): TerminalRunner {
  const bubblewrap = options.bubblewrapPath ?? DEFAULT_BUBBLEWRAP_PATH;
  let probed: Promise<Probed> | null = null;
  let known: SandboxProbe | null = null;
  const probeOnce = () =>
    (probed ??= probeSandbox(bubblewrap, settings).then((found) => {
      known = found.probe;
      return found;
    }));
  let tools: Promise<SandboxTools> | null = null;
  const runner: TerminalRunner = {
    settings,
    probe: async () => (await probeOnce()).probe,
    probed: () => known,
    tools: () => (tools ??= findTools(runner)),
    start: async (worktree, command) => {
      const { probe, roots, cgroups } = await probeOnce();
      if (probe.available) {
        const made = await madeCgroups(cgroups, settings);
        if ('reason' in made) return { ok: false, reason: made.reason };
        const args = sandboxArguments(worktree, command, roots, settings.limits);
        const program = joiningCgroups(made.cgroups, bubblewrap, args);
        return startPiped(program, worktree, scrubbedEnvironment('/tmp'), () =>
          made.cgroups?.remove(),
        );
      }
      if (!settings.allowUnsandboxed)
        return {
          ok: false,
          reason: `the sandbox could not be made (${probe.reason}), and this Forja does not run commands without it (FORJA_TERMINAL_ALLOW_UNSANDBOXED is not true)`,
        };
      const [prlimit, ...limits] = limitCommand(settings.limits);
      const program = { file: prlimit!, args: [...limits, '/bin/sh', '-c', command] };
      return startPiped(program, worktree, scrubbedEnvironment(worktree), () => undefined);
    },
    async run(worktree, command, options = {}) {
      const { probe, roots, cgroups } = await probeOnce();
      const common = {
        cwd: worktree,
        timeoutMs: settings.timeoutMs,
        outputLimitBytes: settings.outputLimitBytes,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      };
      if (probe.available) {
        const args = sandboxArguments(worktree, command, roots, settings.limits);
        const result = await inCgroups(cgroups, settings, (made) =>
          runProcess({
            ...joiningCgroups(made, bubblewrap, args),
            env: scrubbedEnvironment('/tmp'),
            ...common,
          }),
        );
        if ('reason' in result) return { ok: false, reason: result.reason };
        await clearSetIdBits(worktree);
        return { ok: true, sandboxed: true, ...result };
      }
      if (!settings.allowUnsandboxed) {
        return {
          ok: false,
          reason: `terminal refused: the sandbox could not be made (${probe.reason}), and this Forja does not run commands without it (FORJA_TERMINAL_ALLOW_UNSANDBOXED is not true). Nothing was run.`,
        };
      }
      const [prlimit, ...limits] = limitCommand(settings.limits);
      return {
        ok: true,
        sandboxed: false,
        oomKills: 0,
        ...(await runProcess({
          file: prlimit!,
          args: [...limits, '/bin/sh', '-c', command],
          env: scrubbedEnvironment(worktree),
          ...common,
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

/**
 * The program to start: bubblewrap itself, or — with cgroups — a host shell that writes itself into each
 * cgroup and then becomes bubblewrap, so every process of the sandbox is born inside them.
 */
function joiningCgroups(
  cgroups: SandboxCgroups | null,
  bubblewrap: string,
  args: readonly string[],
): Pick<ProcessRequest, 'file' | 'args' | 'countAs'> {
  if (cgroups === null || cgroups.procsFiles.length === 0) return { file: bubblewrap, args };
  return {
    file: '/bin/sh',
    countAs: bubblewrap,
    args: [
      '-c',
      'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec "$@"',
      'forja-sandbox',
      ...cgroups.procsFiles,
      '--',
      bubblewrap,
      ...args,
    ],
  };
}

/** Fresh cgroups under `parents` for a process that outlives this call (none without parents). */
async function madeCgroups(
  parents: readonly CgroupParent[],
  settings: TerminalSettings,
): Promise<{ cgroups: SandboxCgroups | null } | { reason: string }> {
  if (parents.length === 0) return { cgroups: null };
  try {
    return {
      cgroups: await createSandboxCgroups(parents, {
        processes: settings.limits.processes,
        memoryBytes: settings.limits.totalMemoryBytes,
      }),
    };
  } catch (error) {
    return {
      reason: `the cgroups that bound the command could not be made (${error instanceof Error ? error.message : String(error)})`,
    };
  }
}

/** Starts `program` in its own process group with piped stdio; `cleanUp` runs once it has exited. */
function startPiped(
  program: Pick<ProcessRequest, 'file' | 'args' | 'countAs'>,
  cwd: string,
  env: Record<string, string>,
  cleanUp: () => Promise<void> | undefined,
): StartedProcess {
  // Started here, not by the spawn helper: its stdin and stdout are long-lived streams (an MCP server's).
  countSpawn(program.countAs ?? program.file);
  const child = spawn(program.file, [...program.args], {
    cwd,
    env,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const kill = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  };
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    void cleanUp()?.catch(() => undefined);
  };
  child.once('close', end);
  child.once('error', end);
  return { ok: true, child, kill };
}

/** Runs `run` in fresh cgroups under `parents` (none without them), removed after; with the memory cgroup's kills. */
async function inCgroups(
  parents: readonly CgroupParent[],
  settings: TerminalSettings,
  run: (cgroups: SandboxCgroups | null) => Promise<ProcessResult>,
): Promise<(ProcessResult & { oomKills: number }) | { reason: string }> {
  if (parents.length === 0) return { ...(await run(null)), oomKills: 0 };
  let cgroups: SandboxCgroups;
  try {
    cgroups = await createSandboxCgroups(parents, {
      processes: settings.limits.processes,
      memoryBytes: settings.limits.totalMemoryBytes,
    });
  } catch (error) {
    return {
      reason: `terminal refused: the cgroups that bound the command could not be made (${error instanceof Error ? error.message : String(error)}). Nothing was run.`,
    };
  }
  try {
    const result = await run(cgroups);
    return { ...result, oomKills: await cgroups.oomKills() };
  } finally {
    await cgroups.remove();
  }
}

/**
 * Makes one sandbox, with the limits, to know commands can run, and finds where pids and memory cgroups can
 * be made (used when they can). As root the kernel does not count the sandbox's processes against
 * RLIMIT_NPROC (its uid is root's outside), so the process limit needs a pids cgroup: without one, the
 * sandbox is reported unavailable.
 */
async function probeSandbox(bubblewrap: string, settings: TerminalSettings): Promise<Probed> {
  const roots = await readHostRoots();
  const cgroups = await findCgroupParents(['pids', 'memory']);
  const unavailable = (reason: string): Probed => ({
    probe: { available: false, reason },
    roots,
    cgroups,
  });
  const missing = await access(bubblewrap, constants.X_OK).then(
    () => null,
    (error: Error) => error.message,
  );
  if (missing !== null) return unavailable(`${bubblewrap} cannot be started: ${missing}`);
  if (process.getuid?.() === 0 && !cgroups.some((parent) => parent.controller === 'pids'))
    return unavailable(
      'Forja runs as root, where the kernel does not apply the process limit to the sandbox, and no pids cgroup could be made to bound it; run Forja as another user, or give it a writable pids cgroup',
    );
  const scratch = await mkdtemp(join(tmpdir(), 'forja-sandbox-probe-'));
  try {
    const result = await inCgroups(cgroups, settings, (made) =>
      runProcess({
        ...joiningCgroups(
          made,
          bubblewrap,
          sandboxArguments(scratch, 'true', roots, settings.limits),
        ),
        cwd: scratch,
        env: scrubbedEnvironment('/tmp'),
        timeoutMs: Math.min(settings.timeoutMs, 10_000),
        outputLimitBytes: 4096,
      }),
    );
    if ('reason' in result) return unavailable(result.reason);
    if (result.startError !== null)
      return unavailable(`${bubblewrap} cannot be started: ${result.startError}`);
    if (result.exitCode !== 0)
      return unavailable(
        `${bubblewrap} failed (exit ${result.exitCode ?? result.signal}): ${result.output.trim().slice(0, 300)}`,
      );
    return { probe: { available: true }, roots, cgroups };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
