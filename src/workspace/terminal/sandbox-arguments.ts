import { limitCommand, type SandboxLimits } from '../../domain/terminal/index.ts';

/** How one top-level directory of the host looks: a real directory, or a link (`/bin -> usr/bin`). */
export type HostRootEntry =
  | { path: string; kind: 'directory' }
  | { path: string; kind: 'symlink'; target: string };

/** Top-level directories the sandbox shows read-only, when the host has them. */
export const READ_ONLY_ROOTS = [
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
] as const;

/**
 * The few files of /etc programs need to start (loader cache, alternatives, users and groups for `id` and
 * friends). Not /etc as a whole: as root it would show /etc/shadow and private keys to the command.
 */
export const ETC_ENTRIES = [
  '/etc/alternatives',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/passwd',
  '/etc/group',
  '/etc/nsswitch.conf',
  '/etc/localtime',
  '/etc/mime.types',
] as const;

/** The environment a command sees: nothing of Forja's (no keys, no database URL). */
export function scrubbedEnvironment(home: string): Record<string, string> {
  return {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    TMPDIR: '/tmp',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
  };
}

/** The uid and gid a command has inside the sandbox, whoever runs Forja (`nobody`). */
export const SANDBOX_UID = 65534;

/**
 * bubblewrap arguments for one command. Every namespace of its own (`--unshare-all`: user, network — so no
 * network at all —, pid, ipc, uts, cgroup), as the unprivileged uid 65534 with every capability dropped (even
 * when Forja runs as root) and no further user namespace, so nothing can be remounted; bubblewrap sets
 * no-new-privileges. The system read-only; its own /proc (only its processes), read-only as a whole; a
 * private /tmp; and the worktree — at the same path — as the only writable place the host sees, except the
 * worktree's `.git`, bound read-only over itself so it can be neither rewritten nor replaced. The
 * repository's git directory is not in the sandbox at all. It dies with Forja. The command runs under
 * `limits` (ADR 0310): set by `prlimit` inside, and /tmp is a tmpfs of `limits.tmpBytes`. Pure: the host's
 * layout comes in as `roots`.
 */
export function sandboxArguments(
  worktree: string,
  command: string,
  roots: readonly HostRootEntry[],
  limits: SandboxLimits,
): string[] {
  const mounts = roots.flatMap((entry) =>
    entry.kind === 'symlink'
      ? ['--symlink', entry.target, entry.path]
      : ['--ro-bind', entry.path, entry.path],
  );
  const environment = Object.entries(scrubbedEnvironment('/tmp')).flatMap(([name, value]) => [
    '--setenv',
    name,
    value,
  ]);
  return [
    '--die-with-parent',
    '--new-session',
    '--unshare-all',
    '--unshare-user',
    '--disable-userns',
    '--uid',
    String(SANDBOX_UID),
    '--gid',
    String(SANDBOX_UID),
    '--cap-drop',
    'ALL',
    '--hostname',
    'forja-sandbox',
    ...mounts,
    ...ETC_ENTRIES.flatMap((path) => ['--ro-bind-try', path, path]),
    '--proc',
    '/proc',
    // Read-only as a whole: bubblewrap leaves /proc/sys writable, and the sandbox's uid is the caller's
    // outside — as root, a writable /proc/sys would be the host's kernel settings.
    '--remount-ro',
    '/proc',
    '--dev',
    '/dev',
    '--size',
    String(limits.tmpBytes),
    '--tmpfs',
    '/tmp',
    '--bind',
    worktree,
    worktree,
    '--ro-bind-try',
    `${worktree}/.git`,
    `${worktree}/.git`,
    '--chdir',
    worktree,
    '--clearenv',
    ...environment,
    '--',
    ...limitCommand(limits),
    '/bin/sh',
    '-c',
    command,
  ];
}
