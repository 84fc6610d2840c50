import type { Command } from 'commander';
import { hashPassword, passwordProblem } from '../accounts/passwords.ts';
import { newSecret, TOKEN_PREFIX } from '../accounts/secrets.ts';
import { loadSettings } from './load-settings.ts';
import {
  createPerson,
  findPersonByUsername,
  insertApiToken,
  listApiTokens,
  revokeApiToken,
  USERNAME_PATTERN,
  type Database,
} from '../store/index.ts';
import type { CliIo } from './cli-io.ts';
import { withConfiguredDatabase } from './with-configured-database.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `forja user add NAME` (the password from stdin), `forja token create|list|revoke` (ADR 0100). These run on
 * the database directly, like the other commands: with the embedded database, while `forja serve` is stopped.
 */
export function registerAccountCommands(
  program: Command,
  io: CliIo,
  setExitCode: (code: number) => void,
): void {
  const onDatabase =
    (command: string, run: (database: Database) => Promise<number>) => async () => {
      const loaded = loadSettings(io.env);
      if (!loaded.ok) {
        io.stderr(`forja: ${loaded.error.message}\n`);
        setExitCode(2);
        return;
      }
      setExitCode(await withConfiguredDatabase(loaded.config, command, io, run));
    };
  const usage = (message: string) => {
    io.stderr(`forja: ${message}\n`);
    return 2;
  };

  const user = program
    .command('user')
    .description('People who sign in (accounts are required beyond loopback)');
  user
    .command('add <name>')
    .description(
      'Create an account; the password is read from stdin (at least 12 characters). The first account owns every existing project',
    )
    .action(async (name: string) => {
      if (!USERNAME_PATTERN.test(name))
        return setExitCode(
          usage(
            `user add: name must be 1 to 64 lowercase letters, digits, '.', '_' or '-', not "${name}".`,
          ),
        );
      if (io.stdin === undefined)
        return setExitCode(usage('user add: the password is read from stdin, and there is none.'));
      if (io.stdinIsTerminal) io.stderr(`Password for ${name}: `);
      const password = (await io.stdin()).replace(/\r?\n$/, '');
      const problem = passwordProblem(password);
      if (problem !== null) return setExitCode(usage(`user add: the password ${problem}.`));
      const passwordHash = await hashPassword(password);
      await onDatabase('user add', async (database) => {
        if ((await findPersonByUsername(database, name)) !== null)
          return usage(`user add: there is already an account named ${name}.`);
        const { person, adoptedProjects } = await createPerson(database, {
          username: name,
          passwordHash,
        });
        io.stdout(
          `Created ${person.username} (${person.id}).${adoptedProjects > 0 ? ` Owner of the ${adoptedProjects} existing projects.` : ''}\n`,
        );
        return 0;
      })();
    });

  const token = program
    .command('token')
    .description('API tokens for scripts: Authorization: Bearer <token>');
  token
    .command('create')
    .description('Create an API token for a person; it is printed once and stored only as a hash')
    .requiredOption('--user <name>', 'whose token it is')
    .option('--name <label>', 'what the token is for', 'script')
    .action(async (options: { user: string; name: string }) =>
      onDatabase('token create', async (database) => {
        const person = await findPersonByUsername(database, options.user);
        if (person === null)
          return usage(
            `token create: no account named ${options.user} (create it with \`forja user add ${options.user}\`).`,
          );
        const { secret, hash } = newSecret(TOKEN_PREFIX);
        const created = await insertApiToken(database, {
          personId: person.id,
          name: options.name.slice(0, 200),
          secretHash: hash,
        });
        io.stdout(`${secret}\n`);
        io.stderr(
          `Token ${created.id} for ${person.username}: shown once; revoke it with \`forja token revoke ${created.id}\`.\n`,
        );
        return 0;
      })(),
    );
  token
    .command('list')
    .description("A person's tokens (id, name, created, revoked)")
    .requiredOption('--user <name>', 'whose tokens')
    .action(async (options: { user: string }) =>
      onDatabase('token list', async (database) => {
        const person = await findPersonByUsername(database, options.user);
        if (person === null) return usage(`token list: no account named ${options.user}.`);
        for (const row of await listApiTokens(database, person.id))
          io.stdout(`${row.id}\t${row.name}\t${row.created_at}\t${row.revoked_at ?? 'active'}\n`);
        return 0;
      })(),
    );
  token
    .command('revoke <id>')
    .description('Revoke a token: requests with it are refused (401) from now on')
    .action(async (id: string) => {
      if (!UUID.test(id))
        return setExitCode(
          usage(
            `token revoke: the id must be a UUID (as \`forja token list\` shows), not "${id}".`,
          ),
        );
      await onDatabase('token revoke', async (database) => {
        if (!(await revokeApiToken(database, id)))
          return usage(`token revoke: no active token with id ${id}.`);
        io.stdout(`Revoked ${id}.\n`);
        return 0;
      })();
    });
}
