import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SANDBOX_LIMITS,
  limitNotes,
  readSandboxLimits,
  SANDBOX_LIMIT_VARIABLES,
} from './sandbox-limits.ts';

const entries = fc.constantFrom(...SANDBOX_LIMIT_VARIABLES);

describe('readSandboxLimits', () => {
  it('keeps the defaults when nothing is set', () => {
    expect(readSandboxLimits({})).toEqual({ ok: true, limits: DEFAULT_SANDBOX_LIMITS });
  });

  it('takes any whole number in the range, in the variable unit', () => {
    fc.assert(
      fc.property(
        entries.chain((entry) =>
          fc.tuple(fc.constant(entry), fc.integer({ min: entry.min, max: entry.max })),
        ),
        ([entry, value]) => {
          const read = readSandboxLimits({ [entry.variable]: ` ${value} ` });
          expect(read).toMatchObject({ ok: true, limits: { [entry.field]: value * entry.unit } });
        },
      ),
    );
  });

  it('refuses anything else, naming the variable and the rule', () => {
    const wrong = entries.chain((entry) =>
      fc.tuple(
        fc.constant(entry),
        fc.oneof(
          fc.integer({ max: entry.min - 1 }).map(String),
          fc.integer({ min: entry.max + 1 }).map(String),
          fc
            .string({ minLength: 1 })
            .filter((text) => text.trim() !== '' && !/^\s*\d+\s*$/.test(text)),
        ),
      ),
    );
    fc.assert(
      fc.property(wrong, ([entry, value]) => {
        expect(readSandboxLimits({ [entry.variable]: value })).toEqual({
          ok: false,
          variable: entry.variable,
          message: `${entry.variable} must be a whole number from ${entry.min} to ${entry.max}, not "${value}".`,
        });
      }),
    );
  });
});

describe('limitNotes', () => {
  const run = (exitCode: number | null, output: string, signal: string | null = null) => ({
    exitCode,
    signal,
    output,
  });
  it('names the limit from the exit status a limit signal leaves, or from what programs print', () => {
    const limits = DEFAULT_SANDBOX_LIMITS;
    expect(limitNotes(run(153, ''), limits)).toEqual(['the file size limit (512 MiB) was reached']);
    expect(limitNotes(run(152, 'CPU time limit exceeded'), limits)).toEqual([
      'the CPU time limit (600 s per process) was reached',
    ]);
    expect(limitNotes(run(2, '/bin/sh: 0: Cannot fork'), limits)).toEqual([
      'the process limit (256 processes and threads) was reached',
    ]);
    expect(limitNotes(run(1, 'MemoryError'), limits)).toEqual([
      'the memory limit (1024 MiB per process) was reached',
    ]);
    expect(limitNotes({ ...run(null, '', 'SIGKILL'), oomKills: 2 }, limits)).toEqual([
      'the memory limit of the whole command (4096 MiB, /tmp included) was reached: the kernel killed 2 of its processes',
    ]);
    expect(limitNotes(run(0, 'all fine'), limits)).toEqual([]);
  });
});
