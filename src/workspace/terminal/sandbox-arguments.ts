/** How one top-level directory of the host looks: a real directory, or a link (`/bin -> usr/bin`). */
export type HostRootEntry = { path: string; kind: 'directory' } | { path: string; kind: 'symlink'; target: string };

/** Top-level directories the sandbox shows read-only, when the host has them. */
export const READ_ONLY_ROOTS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'] as const;

/**
 * The few files of /etc programs need to start (loader cache, alternatives, users and groups for `id` and
 * friends). Not /etc as a whole: as root it would show /etc/shadow and private keys to the command.
 */
export const ETC_ENTRIES = ['/etc/alternatives', '/etc/ld.so.cache', '/etc/ld.so.conf', '/etc/ld.so.conf.d', '/etc/passwd', '/etc/group', '/etc/nsswitch.conf', '/etc/localtime', '/etc/mime.types'] as const;

/** The environment a command sees: nothing of Forja's (no keys, no database URL). */
export function scrubbedEnvironment(home: string): Record<string, string> {
  return { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: home, TMPDIR: '/tmp', LANG: 'C.UTF-8', TERM: 'dumb' };
}

/**
 * bubblewrap arguments for one command: no network (its own empty network namespace), its own pid, ipc and
 * uts namespaces, the system read-only, a private /tmp, and the worktree — at the same path — as the only
 * writable place the host sees; it dies with Forja. Pure: the host's layout comes in as `roots`.
 */
export function sandboxArguments(worktree: string, command: string, roots: readonly HostRootEntry[]): string[] {
  const mounts = roots.flatMap((entry) => (entry.kind === 'symlink' ? ['--symlink', entry.target, entry.path] : ['--ro-bind', entry.path, entry.path]));
  const environment = Object.entries(scrubbedEnvironment('/tmp')).flatMap(([name, value]) => ['--setenv', name, value]);
  return [
    '--die-with-parent',
    '--new-session',
    '--unshare-net',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    '--hostname',
    'forja-sandbox',
    ...mounts,
    ...ETC_ENTRIES.flatMap((path) => ['--ro-bind-try', path, path]),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--tmpfs',
    '/tmp',
    '--bind',
    worktree,
    worktree,
    '--chdir',
    worktree,
    '--clearenv',
    ...environment,
    '--',
    '/bin/sh',
    '-c',
    command,
  ];
}
