import { randomUUID } from 'node:crypto';
import { access, mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Where Forja may make a pids cgroup per command: a directory of a cgroup hierarchy (v1 `pids` or v2 with the
 * `pids` controller given to its children) whose children get a `pids.max`. The kernel does not apply
 * RLIMIT_NPROC to root's processes — nor to a sandbox's, whose uid is root's outside — so when Forja runs as
 * root this is what bounds a fork bomb (ADR 0310).
 */
export interface PidsCgroupParent {
  directory: string;
}

/** A cgroup made for one command: write the process into `procsFile` before it forks, `remove` once it ended. */
export interface PidsCgroup {
  procsFile: string;
  remove(): Promise<void>;
}

/**
 * The candidate parent directories, from the mounts and this process's own cgroups: `<v1 pids mount>/<own
 * path>` and `<v2 mount>/<own path>`. Pure.
 */
export function cgroupCandidates(mounts: string, ownCgroups: string): string[] {
  const v1 = mounts
    .split('\n')
    .map((line) => line.split(' '))
    .find((fields) => fields[2] === 'cgroup' && (fields[3] ?? '').split(',').includes('pids'))?.[1];
  const v2 = mounts
    .split('\n')
    .map((line) => line.split(' '))
    .find((fields) => fields[2] === 'cgroup2')?.[1];
  const own = (match: (controllers: string) => boolean) =>
    ownCgroups
      .split('\n')
      .map((line) => /^\d+:([^:]*):(\/.*)$/.exec(line))
      .find((found) => found !== null && match(found[1]!))?.[2];
  const candidates: string[] = [];
  const v1Path = own((controllers) => controllers.split(',').includes('pids'));
  if (v1 !== undefined && v1Path !== undefined) candidates.push(join(v1, v1Path));
  const v2Path = own((controllers) => controllers === '');
  if (v2 !== undefined && v2Path !== undefined) candidates.push(join(v2, v2Path));
  return candidates;
}

/** The first candidate where a child cgroup with a working `pids.max` can be made (made and removed to know); null when none. */
export async function findPidsCgroupParent(): Promise<PidsCgroupParent | null> {
  const [mounts, own] = await Promise.all([
    readFile('/proc/self/mounts', 'utf8').catch(() => ''),
    readFile('/proc/self/cgroup', 'utf8').catch(() => ''),
  ]);
  for (const directory of cgroupCandidates(mounts, own)) {
    const made = await createPidsCgroup({ directory }, 16).catch(() => null);
    if (made === null) continue;
    await made.remove();
    return { directory };
  }
  return null;
}

/** A fresh child cgroup of `parent` holding at most `max` processes and threads. */
export async function createPidsCgroup(parent: PidsCgroupParent, max: number): Promise<PidsCgroup> {
  const directory = join(parent.directory, `forja-sandbox-${randomUUID()}`);
  await mkdir(directory);
  try {
    await access(join(directory, 'pids.max'));
    await writeFile(join(directory, 'pids.max'), String(max));
  } catch (error) {
    await rmdir(directory).catch(() => undefined);
    throw error;
  }
  return {
    procsFile: join(directory, 'cgroup.procs'),
    // The last processes of a killed pid namespace are reaped a moment after its init ends: retried for ~2 s.
    async remove() {
      for (let attempt = 0; attempt < 40; attempt += 1) {
        const removed = await rmdir(directory).then(
          () => true,
          (error: NodeJS.ErrnoException) => error.code === 'ENOENT',
        );
        if (removed) return;
        await sleep(50);
      }
    },
  };
}
