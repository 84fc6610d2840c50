/**
 * Which shell commands a person should look at twice before approving them (ADR 0190). A flag, never a
 * refusal: the sandbox (ADR 0040) is what confines a command; this only tells the person why one is risky.
 * Pure and cautious: a program is recognised at the start of any command of a line (after `;`, `&&`, `|`,
 * `(`, `$(`, a backquote, `sudo`, `env`, `xargs`, an absolute path…); a false alarm costs a second look, a
 * missed one could cost the work.
 */

export type CommandRiskRule =
  | 'recursive-force-delete'
  | 'pipe-to-shell'
  | 'superuser'
  | 'world-writable'
  | 'force-push'
  | 'history-rewrite'
  | 'raw-disk-write'
  | 'make-filesystem'
  | 'device-overwrite'
  | 'fork-bomb';

export type CommandRisk = { rule: CommandRiskRule; why: string };

/** What an action's payload carries: `risky` when at least one rule matched, each match with why. */
export type CommandRiskVerdict = { risky: boolean; reasons: CommandRisk[] };

/** Words that run the next word as a program. */
const LAUNCHERS = new Set([
  'sudo',
  'doas',
  'env',
  'xargs',
  'nohup',
  'time',
  'exec',
  'command',
  'nice',
]);

/** Each simple command of the line as its words, the program first (its path dropped, launchers skipped). */
function simpleCommands(command: string): string[][] {
  return command
    .split(/\|\||&&|[;&|\n()`{}]|\$\(/)
    .map((part) =>
      part
        .trim()
        .split(/\s+/)
        .filter((word) => word !== ''),
    )
    .filter((words) => words.length > 0)
    .map((words) => {
      let at = 0;
      while (
        at < words.length - 1 &&
        (/^\w+=/.test(words[at]!) ||
          LAUNCHERS.has(baseName(words[at]!)) ||
          (at > 0 && /^-/.test(words[at]!)))
      )
        at += 1;
      return [baseName(words[at]!), ...words.slice(at + 1)];
    });
}

const baseName = (word: string) => word.replace(/^["']|["']$/g, '').replace(/^.*\//, '');

/** The single-letter flags of a word list (`-r -f` and `-rf` both give "rf"; `--recursive` gives "r"). */
function shortFlags(words: readonly string[], long: Record<string, string> = {}): string {
  let flags = '';
  for (const word of words) {
    if (word === '--') break;
    if (long[word] !== undefined) flags += long[word];
    else if (/^-[a-zA-Z]+$/.test(word)) flags += word.slice(1);
  }
  return flags;
}

const runs = (command: string, test: (words: string[]) => boolean) =>
  simpleCommands(command).some(test);

const RULES: ReadonlyArray<{
  rule: CommandRiskRule;
  why: string;
  test: (command: string) => boolean;
}> = [
  {
    rule: 'recursive-force-delete',
    why: 'deletes files recursively without asking (rm -rf)',
    test: (command) =>
      // Anywhere in a command, not only as its program: `find . -exec rm -rf {} +` deletes just the same.
      runs(command, (words) => {
        const at = words.findIndex((word, index) =>
          index === 0 ? word === 'rm' : baseName(word) === 'rm',
        );
        if (at === -1) return false;
        const flags = shortFlags(words.slice(at + 1), { '--recursive': 'r', '--force': 'f' });
        return /[rR]/.test(flags) && flags.includes('f');
      }),
  },
  {
    rule: 'pipe-to-shell',
    why: 'runs what it downloads (a download piped into a shell)',
    test: (command) =>
      /\b(?:curl|wget)\b[^;&\n]*\|\s*(?:sudo\s+)?(?:\S*\/)?(?:ba|z|da|k)?sh\b/.test(command) ||
      /\b(?:ba|z|da|k)?sh\b\s+(?:-c\s+)?["']?(?:\$\(|<\(|`)\s*(?:curl|wget)\b/.test(command),
  },
  {
    rule: 'superuser',
    why: 'asks for superuser rights (sudo, su, doas)',
    test: (command) =>
      command
        .split(/\|\||&&|[;&|\n()`{}]|\$\(/)
        .some((part) => /^\s*(?:\S*\/)?(?:sudo|su|doas)(?:\s|$)/.test(part)),
  },
  {
    rule: 'world-writable',
    why: 'makes files writable by everyone (chmod 777, o+w)',
    test: (command) =>
      runs(
        command,
        ([program, ...rest]) =>
          program === 'chmod' &&
          rest.some(
            (word) =>
              /^0?[0-7]?[0-7]{2}[2367]$/.test(word) ||
              /^(?:[ugo]*[ao][ugo]*)?\+[rwxXst]*w/.test(word),
          ),
      ),
  },
  {
    rule: 'force-push',
    why: 'overwrites history on a remote (git push --force)',
    test: (command) =>
      runs(command, ([program, ...rest]) => {
        const push = rest.indexOf('push');
        if (program !== 'git' || push === -1) return false;
        const after = rest.slice(push + 1);
        return (
          after.some(
            (word) =>
              /^--force(?:-with-lease|-if-includes)?(?:=.*)?$/.test(word) || /^\+./.test(word),
          ) || shortFlags(after).includes('f')
        );
      }),
  },
  {
    rule: 'history-rewrite',
    why: 'throws away commits or uncommitted work (git reset --hard, git clean -f)',
    test: (command) =>
      runs(command, ([program, ...rest]) => {
        if (program !== 'git') return false;
        if (rest.includes('reset') && rest.includes('--hard')) return true;
        const clean = rest.indexOf('clean');
        return (
          clean !== -1 &&
          (shortFlags(rest.slice(clean + 1)).includes('f') || rest.includes('--force'))
        );
      }),
  },
  {
    rule: 'raw-disk-write',
    why: 'copies raw bytes onto a file or a device (dd)',
    test: (command) => runs(command, ([program]) => program === 'dd'),
  },
  {
    rule: 'make-filesystem',
    why: 'formats a disk (mkfs)',
    test: (command) =>
      runs(command, ([program]) => /^mkfs(?:\.\w+)?$|^mke2fs$|^wipefs$/.test(program!)),
  },
  {
    rule: 'device-overwrite',
    why: 'writes straight onto a disk device (> /dev/sd…)',
    test: (command) => />\s*\/dev\/(?:sd|hd|nvme|xvd|vd|disk|mmcblk)\w*/.test(command),
  },
  {
    rule: 'fork-bomb',
    why: 'starts processes without end (a fork bomb)',
    test: (command) => /(\w+|:)\s*\(\s*\)\s*\{[^}]*\1\s*\|\s*\1\s*&/.test(command),
  },
];

/** The verdict on one shell command. */
export function assessCommand(command: string): CommandRiskVerdict {
  const reasons = RULES.filter((rule) => rule.test(command)).map(({ rule, why }) => ({
    rule,
    why,
  }));
  return { risky: reasons.length > 0, reasons };
}

/** The rules, in the order they are checked. */
export const COMMAND_RISK_RULES: readonly CommandRiskRule[] = RULES.map((rule) => rule.rule);
