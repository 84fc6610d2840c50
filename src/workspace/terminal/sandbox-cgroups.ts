import { randomUUID } from 'node:crypto';
import { access, mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** The cgroup controllers a sandbox uses: `pids` bounds its processes, `memory` all their memory together. */
export type Controller = 'pids' | 'memory';

/**
 * Where Forja may make a cgroup per command for one controller: a directory of a cgroup hierarchy (v1, or v2
 * with the controller given to its children) whose children get the controller's limit file. The kernel
 * does not apply RLIMIT_NPROC to root's processes — nor to a sandbox's, whose uid is root's outside — so when
 * Forja runs as root a pids cgroup is what bounds a fork bomb (ADR 0310).
 */
export interface CgroupParent {
  controller: Controller;
  directory: string;
  /** The file that takes the limit: `pids.max`, `memory.max` (v2) or `memory.limit_in_bytes` (v1). */
  limitFile: string;
}

/** The cgroups made for one command: write the process into each of `procsFiles` before it forks. */
export interface SandboxCgroups {
  procsFiles: string[];
  /** How many times the kernel killed a process of the command for the memory cgroup's limit. */
  oomKills(): Promise<number>;
  remove(): Promise<void>;
}

const LIMIT_FILES: Record<Controller, string[]> = {
  pids: ['pids.max'],
  memory: ['memory.max', 'memory.limit_in_bytes'],
};

/**
 * The candidate parent directories of `controller`, from the mounts and this process's own cgroups:
 * `<v1 mount with the controller>/<own path>` and `<v2 mount>/<own path>`. Pure.
 */
export function cgroupCandidates(
  mounts: string,
  ownCgroups: string,
  controller: Controller,
): string[] {
  const fields = mounts.split('\n').map((line) => line.split(' '));
  const v1 = fields.find(
    (mount) => mount[2] === 'cgroup' && (mount[3] ?? '').split(',').includes(controller),
  )?.[1];
  const v2 = fields.find((mount) => mount[2] === 'cgroup2')?.[1];
  const own = (match: (controllers: string) => boolean) =>
    ownCgroups
      .split('\n')
      .map((line) => /^\d+:([^:]*):(\/.*)$/.exec(line))
      .find((found) => found !== null && match(found[1]!))?.[2];
  const candidates: string[] = [];
  const v1Path = own((controllers) => controllers.split(',').includes(controller));
  if (v1 !== undefined && v1Path !== undefined) candidates.push(join(v1, v1Path));
  const v2Path = own((controllers) => controllers === '');
  if (v2 !== undefined && v2Path !== undefined) candidates.push(join(v2, v2Path));
  return candidates;
}

/**
 * For each controller, the first candidate where a child cgroup with a working limit file can be made (made
 * and removed to know); a controller with none is left out.
 */
export async function findCgroupParents(
  controllers: readonly Controller[],
): Promise<CgroupParent[]> {
  const [mounts, own] = await Promise.all([
    readFile('/proc/self/mounts', 'utf8').catch(() => ''),
    readFile('/proc/self/cgroup', 'utf8').catch(() => ''),
  ]);
  const found: CgroupParent[] = [];
  for (const controller of controllers) {
    for (const directory of cgroupCandidates(mounts, own, controller)) {
      const parent = await usableParent(controller, directory);
      if (parent === null) continue;
      found.push(parent);
      break;
    }
  }
  return found;
}

async function usableParent(controller: Controller, directory: string) {
  for (const limitFile of LIMIT_FILES[controller]) {
    const parent = { controller, directory, limitFile };
    const made = await makeChild(parent, controller === 'pids' ? '16' : String(64 * 1024 * 1024));
    if (made === null) continue;
    await removeDirectory(made);
    return parent;
  }
  return null;
}

/** A fresh child of `parent` with `limit` written in its limit file; null when it cannot be made. */
async function makeChild(parent: CgroupParent, limit: string): Promise<string | null> {
  const directory = join(parent.directory, `forja-sandbox-${randomUUID()}`);
  if (
    !(await mkdir(directory).then(
      () => true,
      () => false,
    ))
  )
    return null;
  try {
    await access(join(directory, parent.limitFile));
    await writeFile(join(directory, parent.limitFile), limit);
    // No swap either, where the kernel has the file (v2): the limit is memory, not memory and then disk.
    if (parent.limitFile === 'memory.max')
      await writeFile(join(directory, 'memory.swap.max'), '0').catch(() => undefined);
    return directory;
  } catch {
    await rmdir(directory).catch(() => undefined);
    return null;
  }
}

/**
 * Makes one cgroup per parent for a command: at most `limits.processes` processes and threads, at most
 * `limits.memoryBytes` of memory for all of them together. Throws when one cannot be made.
 */
export async function createSandboxCgroups(
  parents: readonly CgroupParent[],
  limits: { processes: number; memoryBytes: number },
): Promise<SandboxCgroups> {
  const made: Array<{ parent: CgroupParent; directory: string }> = [];
  for (const parent of parents) {
    const limit = parent.controller === 'pids' ? limits.processes : limits.memoryBytes;
    const directory = await makeChild(parent, String(limit));
    if (directory === null) {
      await Promise.all(made.map((entry) => removeDirectory(entry.directory)));
      throw new Error(`a ${parent.controller} cgroup could not be made under ${parent.directory}`);
    }
    made.push({ parent, directory });
  }
  return {
    procsFiles: made.map((entry) => join(entry.directory, 'cgroup.procs')),
    async oomKills() {
      const memory = made.find((entry) => entry.parent.controller === 'memory');
      if (memory === undefined) return 0;
      const file =
        memory.parent.limitFile === 'memory.max' ? 'memory.events' : 'memory.oom_control';
      const text = await readFile(join(memory.directory, file), 'utf8').catch(() => '');
      return Number(/^oom_kill (\d+)$/m.exec(text)?.[1] ?? 0);
    },
    remove: async () => {
      await Promise.all(made.map((entry) => removeDirectory(entry.directory)));
    },
  };
}

/** The last processes of a killed pid namespace are reaped a moment after its init ends: retried for ~10 s. */
async function removeDirectory(directory: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const removed = await rmdir(directory).then(
      () => true,
      (error: NodeJS.ErrnoException) => error.code === 'ENOENT',
    );
    if (removed) return;
    await sleep(50);
  }
}
