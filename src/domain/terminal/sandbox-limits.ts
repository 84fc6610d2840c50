/**
 * What one sandboxed command may use (ADR 0310). The kernel enforces each: processes (RLIMIT_NPROC, and a pids
 * cgroup where the kernel does not count the sandbox's user), memory per process (RLIMIT_DATA) and, where a
 * memory cgroup can be made, for the whole command (`totalMemoryBytes`, its /tmp included), CPU time per
 * process (RLIMIT_CPU), the size of any file it writes (RLIMIT_FSIZE), the size of its /tmp (a tmpfs with a
 * size). `commitBytes` bounds what one commit of a worktree may add, checked before git reads the files.
 */
export interface SandboxLimits {
  processes: number;
  memoryBytes: number;
  totalMemoryBytes: number;
  cpuSeconds: number;
  fileSizeBytes: number;
  tmpBytes: number;
  commitBytes: number;
}

const MIB = 1024 * 1024;

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  processes: 256,
  memoryBytes: 1024 * MIB,
  totalMemoryBytes: 4096 * MIB,
  cpuSeconds: 600,
  fileSizeBytes: 512 * MIB,
  tmpBytes: 256 * MIB,
  commitBytes: 512 * MIB,
};

/** Each limit's variable, its unit and the whole numbers it takes. */
export const SANDBOX_LIMIT_VARIABLES = [
  { field: 'processes', variable: 'FORJA_SANDBOX_MAX_PROCESSES', unit: 1, min: 16, max: 65_536 },
  { field: 'memoryBytes', variable: 'FORJA_SANDBOX_MEMORY_MB', unit: MIB, min: 64, max: 1_048_576 },
  {
    field: 'totalMemoryBytes',
    variable: 'FORJA_SANDBOX_TOTAL_MEMORY_MB',
    unit: MIB,
    min: 64,
    max: 1_048_576,
  },
  { field: 'cpuSeconds', variable: 'FORJA_SANDBOX_CPU_SECONDS', unit: 1, min: 1, max: 86_400 },
  {
    field: 'fileSizeBytes',
    variable: 'FORJA_SANDBOX_FILE_SIZE_MB',
    unit: MIB,
    min: 1,
    max: 1_048_576,
  },
  { field: 'tmpBytes', variable: 'FORJA_SANDBOX_TMP_MB', unit: MIB, min: 1, max: 1_048_576 },
  { field: 'commitBytes', variable: 'FORJA_COMMIT_MAX_MB', unit: MIB, min: 1, max: 1_048_576 },
] as const satisfies ReadonlyArray<{
  field: keyof SandboxLimits;
  variable: string;
  unit: number;
  min: number;
  max: number;
}>;

/**
 * Reads the limits from the environment: unset (or blank) keeps the default; anything but a whole number in
 * the variable's range is an error naming the variable and the rule.
 */
export function readSandboxLimits(
  env: NodeJS.ProcessEnv,
): { ok: true; limits: SandboxLimits } | { ok: false; variable: string; message: string } {
  const limits = { ...DEFAULT_SANDBOX_LIMITS };
  for (const { field, variable, unit, min, max } of SANDBOX_LIMIT_VARIABLES) {
    const raw = (env[variable] ?? '').trim();
    if (raw === '') continue;
    const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isSafeInteger(value) || value < min || value > max)
      return {
        ok: false,
        variable,
        message: `${variable} must be a whole number from ${min} to ${max}, not "${env[variable]}".`,
      };
    limits[field] = value * unit;
  }
  return { ok: true, limits };
}

const CPU_GRACE_SECONDS = 5;

/**
 * The `prlimit` command line that sets the limits, soft and hard alike (so the command cannot raise them; the
 * CPU's hard limit a few seconds above, so the soft one's SIGXCPU comes first), for the program after it; no
 * core files. Pure.
 */
export function limitCommand(limits: SandboxLimits): string[] {
  return [
    'prlimit',
    `--nproc=${limits.processes}`,
    `--data=${limits.memoryBytes}`,
    // SIGXCPU at the limit (the shell says "CPU time limit exceeded"), SIGKILL 5 s of CPU later if caught.
    `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + CPU_GRACE_SECONDS}`,
    `--fsize=${limits.fileSizeBytes}`,
    '--core=0',
    '--',
  ];
}

const MESSAGES: ReadonlyArray<{ pattern: RegExp; note: (limits: SandboxLimits) => string }> = [
  {
    pattern: /cannot fork|fork: |resource temporarily unavailable|EAGAIN/i,
    note: (limits) => `the process limit (${limits.processes} processes and threads) was reached`,
  },
  {
    pattern: /cannot allocate memory|out of memory|allocation failed|MemoryError|ENOMEM/i,
    note: (limits) => `the memory limit (${mib(limits.memoryBytes)} MiB per process) was reached`,
  },
  {
    pattern: /cpu time limit exceeded/i,
    note: (limits) => `the CPU time limit (${limits.cpuSeconds} s per process) was reached`,
  },
  {
    pattern: /no space left on device|ENOSPC/i,
    note: (limits) => `a disk limit was reached (/tmp holds ${mib(limits.tmpBytes)} MiB)`,
  },
  {
    pattern: /file too large|file size limit exceeded|EFBIG/i,
    note: (limits) => `the file size limit (${mib(limits.fileSizeBytes)} MiB) was reached`,
  },
];

/** Exit statuses of a shell whose child the kernel killed for a limit (128 + the signal's number). */
const SIGNAL_NOTES: ReadonlyArray<{
  signal: string;
  code: number;
  note: (limits: SandboxLimits) => string;
}> = [
  {
    signal: 'SIGXCPU',
    code: 152,
    note: (limits) => `the CPU time limit (${limits.cpuSeconds} s per process) was reached`,
  },
  {
    signal: 'SIGXFSZ',
    code: 153,
    note: (limits) => `the file size limit (${mib(limits.fileSizeBytes)} MiB) was reached`,
  },
];

/**
 * Which limits a command's run shows it reached, in words for the model and the person: from the signal or
 * exit status the kernel's limit signals leave, from the memory cgroup's kills, and from what the usual
 * programs print when a limit refuses them. Empty when none shows. Pure.
 */
export function limitNotes(
  run: { exitCode: number | null; signal: string | null; output: string; oomKills?: number },
  limits: SandboxLimits,
): string[] {
  const notes = new Set<string>();
  if ((run.oomKills ?? 0) > 0)
    notes.add(
      `the memory limit of the whole command (${mib(limits.totalMemoryBytes)} MiB, /tmp included) was reached: the kernel killed ${run.oomKills} of its processes`,
    );
  for (const entry of SIGNAL_NOTES)
    if (run.signal === entry.signal || run.exitCode === entry.code) notes.add(entry.note(limits));
  for (const entry of MESSAGES) if (entry.pattern.test(run.output)) notes.add(entry.note(limits));
  return [...notes];
}

/** The limits in one line, as the model and the person read them. */
export function describeLimits(limits: SandboxLimits): string {
  return `${limits.processes} processes, ${mib(limits.memoryBytes)} MiB of memory and ${limits.cpuSeconds} s of CPU per process, files up to ${mib(limits.fileSizeBytes)} MiB, /tmp ${mib(limits.tmpBytes)} MiB`;
}

const mib = (bytes: number) => Math.floor(bytes / MIB);
