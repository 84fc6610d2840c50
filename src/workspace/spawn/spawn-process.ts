import { type ChildProcess, spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { fileURLToPath } from 'node:url';
import { countSpawn } from './spawn-counts.ts';

/** One program to start, in a process group of its own, with no shell. */
export interface SpawnRequest {
  file: string;
  args: readonly string[];
  cwd: string;
  /** The whole environment of the program. */
  env: Record<string, string>;
  /** Written to its stdin, which is then closed; without it stdin is /dev/null. */
  stdin?: Buffer;
  /** The name it is counted by (`spawnCounts`) when `file` only starts it (a shell that becomes bubblewrap). */
  countAs?: string;
  /**
   * The most bytes of each stream its caller keeps: past them the output is still read (the program never
   * blocks on a full pipe) but not passed on, so a chatty program costs no messages from the helper.
   */
  keepBytes?: number;
}

/**
 * A started program: `stdout` and `stderr` chunks, then `close` (after every chunk) with the exit code or
 * signal; `error` first when it could not be started (or the helper it was started by died). `kill` sends
 * SIGKILL to its whole process group.
 */
export interface SpawnedProcess {
  on(event: 'stdout' | 'stderr', listener: (chunk: Buffer) => void): this;
  on(event: 'error', listener: (error: Error) => void): this;
  on(event: 'close', listener: (code: number | null, signal: string | null) => void): this;
  kill(): void;
}

/**
 * How processes are started: `helper` (the default) asks the small spawn helper process; `direct` forks this
 * process, whose cost grows with its resident memory (ADR 0428). The benchmark switches between the two.
 */
export type SpawnPath = 'helper' | 'direct';
let spawnPath: SpawnPath = 'helper';

export function setSpawnPath(path: SpawnPath): void {
  spawnPath = path;
}

/** Starts `request` by the current spawn path, counted by program name (`spawnCounts`). */
export function spawnProcess(request: SpawnRequest): SpawnedProcess {
  countSpawn(request.countAs ?? request.file);
  return spawnPath === 'helper' ? helper.spawn(request) : spawnDirect(request);
}

class Spawned extends EventEmitter implements SpawnedProcess {
  private readonly killer: () => void;
  constructor(killer: () => void) {
    super();
    this.killer = killer;
  }
  kill(): void {
    this.killer();
  }
}

/** Kills a process group; a group already gone is nothing to do. */
export function killGroup(pid: number | undefined | null): void {
  if (pid === undefined || pid === null) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function spawnDirect(request: SpawnRequest): SpawnedProcess {
  const child = spawn(request.file, [...request.args], {
    cwd: request.cwd,
    env: request.env,
    detached: true,
    stdio: [request.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    shell: false,
  });
  if (request.stdin !== undefined && child.stdin !== null) {
    child.stdin.on('error', () => undefined);
    child.stdin.end(request.stdin);
  }
  const spawned = adoptChild(child, { stdout: false, stderr: false });
  child.stdout?.on(
    'data',
    keeping(request.keepBytes, (chunk) => spawned.emit('stdout', chunk)),
  );
  child.stderr?.on(
    'data',
    keeping(request.keepBytes, (chunk) => spawned.emit('stderr', chunk)),
  );
  return spawned;
}

/** Passes on at most `keepBytes` of a stream (all without it), dropping the rest. */
function keeping(
  keepBytes: number | undefined,
  pass: (chunk: Buffer) => void,
): (chunk: Buffer) => void {
  let room = keepBytes ?? Number.POSITIVE_INFINITY;
  return (chunk) => {
    if (room <= 0) return;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    room -= kept.length;
    pass(kept);
  };
}

/**
 * A child this process started itself, seen as a `SpawnedProcess`: its stderr and stdout (each unless the
 * caller reads that stream itself), errors and close are forwarded; `kill` kills its process group.
 */
export function adoptChild(
  child: ChildProcess,
  forward: { stdout: boolean; stderr?: boolean },
): SpawnedProcess & Pick<EventEmitter, 'emit'> {
  const spawned = new Spawned(() => killGroup(child.pid));
  if (forward.stdout) child.stdout?.on('data', (chunk: Buffer) => spawned.emit('stdout', chunk));
  if (forward.stderr !== false)
    child.stderr?.on('data', (chunk: Buffer) => spawned.emit('stderr', chunk));
  child.on('error', (error) => spawned.emit('error', error));
  child.on('close', (code, signal) => spawned.emit('close', code, signal));
  return spawned;
}

const HELPER_MAIN = fileURLToPath(new URL('./spawn-helper-main.ts', import.meta.url));

type HelperMessage =
  | { type: 'spawned'; id: number; pid: number | null }
  | { type: 'out'; id: number; fd: 1 | 2; data: Uint8Array }
  | { type: 'error'; id: number; message: string; code: string | null }
  | { type: 'close'; id: number; code: number | null; signal: string | null };

interface Running {
  spawned: Spawned;
  pid: number | null;
}

/**
 * The client of the spawn helper (`spawn-helper-main.ts`): started on first use, restarted after it died (what
 * it was running then ends with an error and its process groups are killed). It keeps Forja alive only while
 * something it started is running.
 */
class SpawnHelper {
  private child: ChildProcess | null = null;
  private nextId = 1;
  private readonly running = new Map<number, Running>();
  /** How many programs it was asked to start, over every helper process. */
  started = 0;

  spawn(request: SpawnRequest): SpawnedProcess {
    const id = this.nextId++;
    this.started += 1;
    const spawned = new Spawned(() => {
      if (this.running.has(id)) this.send({ type: 'kill', id });
    });
    this.running.set(id, { spawned, pid: null });
    if (this.running.size === 1) this.child?.channel?.ref();
    this.send({
      type: 'spawn',
      id,
      file: request.file,
      args: [...request.args],
      cwd: request.cwd,
      env: request.env,
      ...(request.stdin === undefined ? {} : { stdin: request.stdin }),
      ...(request.keepBytes === undefined ? {} : { keepBytes: request.keepBytes }),
    });
    return spawned;
  }

  /** The pid of the helper process, started if it is not running (tests kill it to see it restarted). */
  pid(): number | undefined {
    return this.process().pid;
  }

  private process(): ChildProcess {
    if (this.child !== null) return this.child;
    const child = spawn(process.execPath, [HELPER_MAIN], {
      cwd: '/',
      env: {},
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'advanced',
    });
    countSpawn('node');
    child.on('message', (message: HelperMessage) => this.receive(message));
    child.on('exit', () => this.died(child));
    child.on('error', () => this.died(child));
    child.unref();
    if (this.running.size === 0) child.channel?.unref();
    this.child = child;
    return child;
  }

  private send(message: Record<string, unknown>): void {
    const child = this.process();
    try {
      child.send(message, (error) => {
        if (error !== null && error !== undefined) this.died(child);
      });
    } catch {
      this.died(child);
    }
  }

  private receive(message: HelperMessage): void {
    const running = this.running.get(message.id);
    if (running === undefined) return;
    if (message.type === 'spawned') running.pid = message.pid;
    else if (message.type === 'out')
      running.spawned.emit(
        message.fd === 1 ? 'stdout' : 'stderr',
        Buffer.from(message.data.buffer, message.data.byteOffset, message.data.byteLength),
      );
    else if (message.type === 'error')
      running.spawned.emit(
        'error',
        Object.assign(new Error(message.message), { code: message.code }),
      );
    else this.end(message.id, message.code, message.signal);
  }

  private end(id: number, code: number | null, signal: string | null): void {
    const running = this.running.get(id);
    if (running === undefined) return;
    this.running.delete(id);
    if (this.running.size === 0) this.child?.channel?.unref();
    running.spawned.emit('close', code, signal);
  }

  /** The helper is gone: what it ran is killed and ends with an error; the next spawn starts a new one. */
  private died(child: ChildProcess): void {
    if (this.child !== child) return;
    this.child = null;
    for (const [id, running] of [...this.running]) {
      killGroup(running.pid);
      running.spawned.emit(
        'error',
        new Error('the spawn helper process exited; the command was stopped'),
      );
      this.end(id, null, 'SIGKILL');
    }
  }
}

const helper = new SpawnHelper();

/** The spawn helper's pid (started when not running): for the benchmark and tests. */
export function spawnHelperPid(): number | undefined {
  return helper.pid();
}

/** How many programs were started through the spawn helper since this process began. */
export function spawnHelperStarts(): number {
  return helper.started;
}
