import type { SandboxLimits } from '../../../domain/terminal/index.ts';

const MIB = 1024 * 1024;

/** Small limits, so no test that tries them can hurt the machine it runs on. */
export const SMALL_LIMITS: SandboxLimits = {
  processes: 64,
  memoryBytes: 256 * MIB,
  totalMemoryBytes: 192 * MIB,
  cpuSeconds: 2,
  fileSizeBytes: 8 * MIB,
  tmpBytes: 16 * MIB,
  commitBytes: 32 * MIB,
};

/**
 * A fork bomb whose processes stay (each waits on a FIFO nobody writes), so the sandbox is full when a watcher,
 * started first, counts its processes with shell builtins after 2 s. It never ends by itself: the time limit
 * ends it.
 */
export const FORK_BOMB =
  'mkfifo /tmp/hold; (sleep 2; set -- /proc/[0-9]*; echo "processes: $#") & sleep 0.3; bomb() { bomb & bomb & read x < /tmp/hold; }; bomb';

/** Fills /tmp past 16 MiB; when a write fails, says how much it holds and fails. */
export const TMP_FILL =
  'for part in a b c d e; do head -c 4M /dev/zero > /tmp/$part || { echo "tmp bytes: $(cat /tmp/* | wc -c)"; exit 1; }; done';

/** Three processes holding 100 MB each at once: within the per-process limit, past the whole command's. */
export const MEMORY_CROWD = `for i in 1 2 3; do awk 'BEGIN { s = sprintf("%100000000s", ""); system("sleep 3"); print "held" }' & done; wait`;

/** Asks for 400 MB in one string. */
export const MEMORY_HOG = `awk 'BEGIN { s = sprintf("%400000000s", ""); print length(s) }'`;
