import { spawnProcess } from '../spawn/spawn-process.ts';

export interface ProcessRequest {
  file: string;
  args: readonly string[];
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  outputLimitBytes: number;
  /** The name it is counted by when `file` only starts it (`SpawnRequest.countAs`). */
  countAs?: string;
  /** Aborted (the turn was stopped): the whole process group is killed at once. */
  signal?: AbortSignal;
}

/** How a process ended, with its output (stdout and stderr interleaved, as a terminal shows them). */
export interface ProcessResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** Killed because `signal` was aborted. */
  stopped: boolean;
  output: string;
  truncated: boolean;
  /** Set when the process could not be started at all (e.g. the program does not exist). */
  startError: string | null;
}

/**
 * Runs a program (through the spawn helper, ADR 0428) in its own process group with a time limit and a stop signal (the whole group is killed
 * when either comes) and an output cap (the rest is read and dropped, so the program is never blocked on a
 * full pipe).
 */
export function runProcess(request: ProcessRequest): Promise<ProcessResult> {
  // Stopped before it began: nothing is started. (A group killed while bubblewrap was still setting up its
  // sandbox could leave the sandboxed child holding the pipes until the time limit.)
  if (request.signal?.aborted === true) return Promise.resolve(STOPPED_BEFORE_START);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    let truncated = false;
    let timedOut = false;
    let stopped = false;
    let startError: string | null = null;
    const child = spawnProcess({
      file: request.file,
      args: request.args,
      cwd: request.cwd,
      env: request.env,
      ...(request.countAs === undefined ? {} : { countAs: request.countAs }),
      // One byte past the cap of each stream tells that the output was cut.
      keepBytes: request.outputLimitBytes + 1,
    });
    const keep = (chunk: Buffer) => {
      const room = request.outputLimitBytes - kept;
      // biome-ignore lint/suspicious/noAssignInExpressions: the flag is set and the chunk dropped in one step
      if (room <= 0) return void (truncated = true);
      if (chunk.length > room) truncated = true;
      chunks.push(chunk.subarray(0, room));
      kept += Math.min(room, chunk.length);
    };
    child.on('stdout', keep);
    child.on('stderr', keep);
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill();
    }, request.timeoutMs);
    const stop = () => {
      stopped = true;
      child.kill();
    };
    request.signal?.addEventListener('abort', stop, { once: true });
    child.on('error', (error) => (startError = error.message));
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', stop);
      resolve({
        exitCode,
        signal,
        timedOut,
        stopped,
        output: Buffer.concat(chunks).toString('utf8'),
        truncated,
        startError,
      });
    });
  });
}

const STOPPED_BEFORE_START: ProcessResult = {
  exitCode: null,
  signal: null,
  timedOut: false,
  stopped: true,
  output: '',
  truncated: false,
  startError: null,
};
