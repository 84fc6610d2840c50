/**
 * The spawn helper (ADR 0428): a small Node process, started by Forja's `spawn-process.ts` with an IPC channel,
 * that starts the programs Forja asks for. Forking costs the parent in proportion to its resident memory (page
 * tables are copied); this process stays small, so each start is cheap. One message in, `spawn` or `kill`; out,
 * `spawned`, `out` (fd 1 or 2), `error` and `close`. It imports nothing of Forja and exits when Forja does.
 */
import { type ChildProcess, spawn } from 'node:child_process';

interface SpawnMessage {
  type: 'spawn';
  id: number;
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  stdin?: Uint8Array;
  /** The most bytes of each stream passed on; the rest is read and dropped. */
  keepBytes?: number;
}
type Incoming = SpawnMessage | { type: 'kill'; id: number };

const children = new Map<number, ChildProcess>();

function send(message: Record<string, unknown>): void {
  if (process.connected) process.send?.(message);
}

function start(message: SpawnMessage): void {
  const child = spawn(message.file, message.args, {
    cwd: message.cwd,
    env: message.env,
    detached: true,
    stdio: [message.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    shell: false,
  });
  children.set(message.id, child);
  send({ type: 'spawned', id: message.id, pid: child.pid ?? null });
  if (message.stdin !== undefined && child.stdin !== null) {
    child.stdin.on('error', () => undefined);
    child.stdin.end(Buffer.from(message.stdin));
  }
  const forward = (fd: 1 | 2) => {
    let room = message.keepBytes ?? Number.POSITIVE_INFINITY;
    return (data: Buffer) => {
      if (room <= 0) return;
      const kept = data.length > room ? data.subarray(0, room) : data;
      room -= kept.length;
      send({ type: 'out', id: message.id, fd, data: kept });
    };
  };
  child.stdout?.on('data', forward(1));
  child.stderr?.on('data', forward(2));
  child.on('error', (error: NodeJS.ErrnoException) =>
    send({ type: 'error', id: message.id, message: error.message, code: error.code ?? null }),
  );
  child.on('close', (code, signal) => {
    children.delete(message.id);
    send({ type: 'close', id: message.id, code, signal });
  });
}

process.on('message', (message: Incoming) => {
  if (message.type === 'spawn') return start(message);
  const pid = children.get(message.id)?.pid;
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
});
// Forja went away: nothing more will be asked.
process.on('disconnect', () => process.exit(0));
