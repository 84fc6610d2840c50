import { simpleGit, type SimpleGit } from 'simple-git';

/**
 * Git for Forja's own operations on a project repository: a fixed identity, no signing, no hooks, and an
 * environment with no `GIT_*` variable of the host (simple-git strips them: a `GIT_DIR` inherited from a hook
 * would point every command at another repository) and no user or system configuration, so the result is
 * the same on every machine, including CI running as root with no git identity.
 */
export function gitAt(directory: string): SimpleGit {
  return simpleGit({
    baseDir: directory,
    config: ['user.name=Forja', 'user.email=forja@localhost', 'commit.gpgsign=false', 'core.hooksPath=/dev/null', 'advice.detachedHead=false'],
    // Both "unsafe" switches are used to make git safer: hooks off, and the host's configuration files ignored.
    unsafe: { allowUnsafeHooksPath: true, allowUnsafeConfigPaths: true },
    allowEnvironment: ['GIT_CONFIG_NOSYSTEM', 'GIT_CONFIG_GLOBAL', 'GIT_TERMINAL_PROMPT'],
  }).env(gitEnvironment());
}

function gitEnvironment(): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    LANG: 'C.UTF-8',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
  };
}
