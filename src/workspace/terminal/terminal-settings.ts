import {
  DEFAULT_SANDBOX_LIMITS,
  readSandboxLimits,
  type SandboxLimits,
} from '../../domain/terminal/index.ts';

/** How a dev agent's `terminal` is offered and run. */
export interface TerminalSettings {
  /**
   * `auto` (default): commands run in the sandbox at once, except those the risk check flags, which wait for
   * the person — and every command waits while the sandbox is not known to work; `proposed`: every command
   * waits; `direct`: none does (ADR 0327).
   */
  mode: TerminalMode;
  /** When the bubblewrap sandbox cannot be made: refuse (default) or run commands without it. */
  allowUnsandboxed: boolean;
  timeoutMs: number;
  outputLimitBytes: number;
  /** What each command (and each check) may use: processes, memory, CPU, file and /tmp sizes (ADR 0310). */
  limits: SandboxLimits;
}

export type TerminalMode = 'auto' | 'proposed' | 'direct';
const TERMINAL_MODES: readonly string[] = ['auto', 'proposed', 'direct'];

export const DEFAULT_TERMINAL_SETTINGS: TerminalSettings = {
  mode: 'auto',
  allowUnsandboxed: false,
  timeoutMs: 120_000,
  outputLimitBytes: 64 * 1024,
  limits: DEFAULT_SANDBOX_LIMITS,
};

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off', '']);

/**
 * Reads `FORJA_TERMINAL_MODE` (`auto` | `proposed` | `direct`), `FORJA_TERMINAL_ALLOW_UNSANDBOXED` (true | false) and
 * `FORJA_TERMINAL_TIMEOUT_SECONDS` (1–3600), and the sandbox's limits (`readSandboxLimits`). A value that is none of these is an error naming the variable,
 * never a silent default. Unset means the safe choice.
 */
export function readTerminalSettings(
  env: NodeJS.ProcessEnv,
): { ok: true; settings: TerminalSettings } | { ok: false; variable: string; message: string } {
  const mode = (env.FORJA_TERMINAL_MODE ?? '').trim().toLowerCase() || 'auto';
  if (!isTerminalMode(mode)) {
    return {
      ok: false,
      variable: 'FORJA_TERMINAL_MODE',
      message: `FORJA_TERMINAL_MODE must be auto, proposed or direct, not "${env.FORJA_TERMINAL_MODE}".`,
    };
  }
  const unsandboxed = (env.FORJA_TERMINAL_ALLOW_UNSANDBOXED ?? '').trim().toLowerCase();
  if (!TRUE_WORDS.has(unsandboxed) && !FALSE_WORDS.has(unsandboxed)) {
    return {
      ok: false,
      variable: 'FORJA_TERMINAL_ALLOW_UNSANDBOXED',
      message: `FORJA_TERMINAL_ALLOW_UNSANDBOXED must be true or false, not "${env.FORJA_TERMINAL_ALLOW_UNSANDBOXED}".`,
    };
  }
  const rawTimeout = (env.FORJA_TERMINAL_TIMEOUT_SECONDS ?? '').trim();
  const seconds =
    rawTimeout === '' ? DEFAULT_TERMINAL_SETTINGS.timeoutMs / 1000 : Number(rawTimeout);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 3600) {
    return {
      ok: false,
      variable: 'FORJA_TERMINAL_TIMEOUT_SECONDS',
      message: `FORJA_TERMINAL_TIMEOUT_SECONDS must be a whole number from 1 to 3600, not "${env.FORJA_TERMINAL_TIMEOUT_SECONDS}".`,
    };
  }
  const limits = readSandboxLimits(env);
  if (!limits.ok) return limits;
  return {
    ok: true,
    settings: {
      ...DEFAULT_TERMINAL_SETTINGS,
      mode,
      allowUnsandboxed: TRUE_WORDS.has(unsandboxed),
      timeoutMs: seconds * 1000,
      limits: limits.limits,
    },
  };
}

/** The settings from the environment; a wrong value is reported through `report` and the safe defaults are used. */
export function terminalSettingsOrDefaults(
  env: NodeJS.ProcessEnv,
  report: (message: string) => void,
): TerminalSettings {
  const read = readTerminalSettings(env);
  if (read.ok) return read.settings;
  report(
    `${read.message} The terminal keeps its safe defaults (proposed, sandbox required, default limits).`,
  );
  return DEFAULT_TERMINAL_SETTINGS;
}

const isTerminalMode = (value: string): value is TerminalMode => TERMINAL_MODES.includes(value);
