import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assessCommand, COMMAND_RISK_RULES, type CommandRiskRule } from './command-risk.ts';

const rulesOf = (command: string) => assessCommand(command).reasons.map((reason) => reason.rule);

/** Commands a dev runs all day: none of them is risky. */
const SAFE = [
  'npm test',
  'npm run build',
  'ls -la src',
  'cat package.json',
  'git status',
  'git diff HEAD~1',
  'git push origin dev-api',
  'git log --oneline -5',
  'rm build/out.js',
  'rm -r dist',
  'chmod +x bin/run',
  'chmod 755 bin/run',
  'node scripts/add.js',
  'echo done',
  'grep -rn TODO src',
  'mkdir -p src/routes',
  'npx vitest run',
  'cargo build',
  'git reset HEAD file.txt',
  'python3 -m pytest',
  'curl -s http://localhost:3000/health',
  'add dd-report.txt',
  'du -sh .',
];

/** A risky command and the rule it must trip. */
const RISKY: Array<[string, CommandRiskRule]> = [
  ['rm -rf /', 'recursive-force-delete'],
  ['rm -fr node_modules', 'recursive-force-delete'],
  ['rm -r -f build', 'recursive-force-delete'],
  ['rm --recursive --force .', 'recursive-force-delete'],
  ['/bin/rm -Rf ~', 'recursive-force-delete'],
  ['find . -name "*.tmp" -exec rm -rf {} +', 'recursive-force-delete'],
  ['ls | xargs rm -rf', 'recursive-force-delete'],
  ['curl -fsSL https://get.example.sh | sh', 'pipe-to-shell'],
  ['wget -qO- https://x.io/i | sudo bash', 'pipe-to-shell'],
  ['bash -c "$(curl -fsSL https://x.io/i)"', 'pipe-to-shell'],
  ['sh <(curl https://x.io/i)', 'pipe-to-shell'],
  ['sudo apt-get install jq', 'superuser'],
  ['npm ci && sudo npm i -g pnpm', 'superuser'],
  ['su -c whoami', 'superuser'],
  ['chmod 777 .', 'world-writable'],
  ['chmod -R 0777 src', 'world-writable'],
  ['chmod o+w secrets.txt', 'world-writable'],
  ['chmod a+rwx run.sh', 'world-writable'],
  ['git push --force origin main', 'force-push'],
  ['git push -f', 'force-push'],
  ['git push origin +main', 'force-push'],
  ['git push --force-with-lease', 'force-push'],
  ['git reset --hard HEAD~3', 'history-rewrite'],
  ['git clean -fdx', 'history-rewrite'],
  ['dd if=/dev/zero of=disk.img bs=1M count=10', 'raw-disk-write'],
  ['mkfs.ext4 /dev/sdb1', 'make-filesystem'],
  ['echo x > /dev/sda', 'device-overwrite'],
  [':(){ :|:& };:', 'fork-bomb'],
];

describe('risky terminal commands', () => {
  it.each(SAFE)('%s is not flagged', (command) => {
    expect(assessCommand(command)).toEqual({ risky: false, reasons: [] });
  });

  it.each(RISKY)('%s is flagged as %s, with why', (command, rule) => {
    const verdict = assessCommand(command);
    expect(verdict.risky).toBe(true);
    expect(rulesOf(command)).toContain(rule);
    for (const reason of verdict.reasons) expect(reason.why.length).toBeGreaterThan(10);
  });

  it('covers every rule with an example', () => {
    expect(new Set(RISKY.map(([, rule]) => rule))).toEqual(new Set(COMMAND_RISK_RULES));
  });

  const safe = fc.constantFrom(...SAFE);
  const risky = fc.constantFrom(...RISKY);
  const separator = fc.constantFrom(' && ', '; ', ' || ', '\n', ' & ');
  const spaces = fc.stringMatching(/^ {1,3}$/);

  it('a risky command stays flagged with whatever safe commands run before or after it', () => {
    fc.assert(
      fc.property(
        fc.array(safe, { maxLength: 3 }),
        risky,
        fc.array(safe, { maxLength: 3 }),
        separator,
        (before, [command, rule], after, joiner) => {
          const line = [...before, command, ...after].join(joiner);
          expect(rulesOf(line)).toContain(rule);
        },
      ),
    );
  });

  it('safe commands chained in any order are never flagged', () => {
    fc.assert(
      fc.property(fc.array(safe, { minLength: 1, maxLength: 5 }), separator, (commands, joiner) => {
        expect(assessCommand(commands.join(joiner)).risky).toBe(false);
      }),
    );
  });

  it('the verdict does not depend on how many spaces stand between words or around the line', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          safe,
          risky.map(([command]) => command),
        ),
        spaces,
        spaces,
        (command, gap, edge) => {
          const spaced = `${edge}${command.replace(/ /g, gap)}${edge}`;
          expect(rulesOf(spaced)).toEqual(rulesOf(command));
        },
      ),
    );
  });

  it('rm with both a recursive and a force flag is flagged, in any order and spelling, before any path', () => {
    const recursive = fc.constantFrom('r', 'R');
    fc.assert(
      fc.property(
        recursive,
        fc.boolean(),
        fc.boolean(),
        fc.stringMatching(/^[a-z][a-z0-9_./-]{0,20}$/),
        (r, together, forceFirst, path) => {
          const flags = together
            ? [forceFirst ? `-f${r}` : `-${r}f`]
            : forceFirst
              ? ['-f', `-${r}`]
              : [`-${r}`, '-f'];
          expect(rulesOf(`rm ${flags.join(' ')} ${path}`)).toContain('recursive-force-delete');
          expect(rulesOf(`rm ${path}`)).not.toContain('recursive-force-delete');
        },
      ),
    );
  });

  it('is total: any text gets a verdict whose flag says whether it has reasons', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (command) => {
        const verdict = assessCommand(command);
        expect(verdict.risky).toBe(verdict.reasons.length > 0);
        for (const reason of verdict.reasons) expect(COMMAND_RISK_RULES).toContain(reason.rule);
      }),
    );
  });
});
