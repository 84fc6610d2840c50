import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../database.ts';
import type { Project } from '../projects/projects.ts';

export interface Person {
  id: string;
  username: string;
}

export type MemberRole = 'owner' | 'member';

export interface Member {
  person_id: string;
  username: string;
  role: MemberRole;
}

export interface ApiTokenRow {
  id: string;
  person_id: string;
  name: string;
  created_at: string;
  revoked_at: string | null;
}

/**
 * The channel `createPerson` notifies in its transaction: a server that answered without accounts requires them from
 * then on, heard rather than asked on every request (ADR 0245, its addendum).
 */
export const ACCOUNTS_CHANNEL = 'forja_accounts';

/** The rule `people.username` follows (the table checks it too). */
export const USERNAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;

export async function anyPersonExists(database: Queryable): Promise<boolean> {
  const result = await database.query<{ found: boolean }>(
    'select exists (select 1 from people) as found',
  );
  return result.rows[0]!.found;
}

/**
 * Creates a person. The first person becomes the owner of every project that has no members yet, so the
 * projects made before accounts existed are not orphaned. Returns how many projects were adopted.
 */
export async function createPerson(
  database: Database,
  input: { username: string; passwordHash: string },
): Promise<{ person: Person; adoptedProjects: number }> {
  return database.transaction(async (transaction) => {
    await transaction.query('lock table people in exclusive mode');
    const first = !(await anyPersonExists(transaction));
    const id = randomUUID();
    await transaction.query(
      'insert into people (id, username, password_hash) values ($1, $2, $3)',
      [id, input.username, input.passwordHash],
    );
    let adoptedProjects = 0;
    if (first) {
      const adopted = await transaction.query<{ project_id: string }>(
        "insert into project_members (project_id, person_id, role) select id, $1, 'owner' from projects where not exists (select 1 from project_members m where m.project_id = projects.id) returning project_id",
        [id],
      );
      adoptedProjects = adopted.rows.length;
    }
    // Sent at the commit: every process that answers without accounts looks again.
    await transaction.query('select pg_notify($1, $2)', [ACCOUNTS_CHANNEL, id]);
    return { person: { id, username: input.username }, adoptedProjects };
  });
}

export async function findPersonByUsername(
  database: Queryable,
  username: string,
): Promise<(Person & { password_hash: string }) | null> {
  const result = await database.query<Person & { password_hash: string }>(
    'select id, username, password_hash from people where username = $1',
    [username],
  );
  return result.rows[0] ?? null;
}

export async function findPersonById(database: Queryable, id: string): Promise<Person | null> {
  const result = await database.query<Person>('select id, username from people where id = $1', [
    id,
  ]);
  return result.rows[0] ?? null;
}

/** Records a sign-in; sign-ins that have expired are deleted on the way. */
export async function insertAuthSession(
  database: Queryable,
  input: { secretHash: string; personId: string; expiresAt: Date },
): Promise<void> {
  await database.query('delete from auth_sessions where expires_at <= now()');
  await database.query(
    'insert into auth_sessions (secret_hash, person_id, expires_at) values ($1, $2, $3)',
    [input.secretHash, input.personId, input.expiresAt],
  );
}

export async function findPersonBySessionHash(
  database: Queryable,
  secretHash: string,
): Promise<Person | null> {
  const result = await database.query<Person>(
    'select p.id, p.username from auth_sessions s join people p on p.id = s.person_id where s.secret_hash = $1 and s.expires_at > now()',
    [secretHash],
  );
  return result.rows[0] ?? null;
}

export async function deleteAuthSession(database: Queryable, secretHash: string): Promise<void> {
  await database.query('delete from auth_sessions where secret_hash = $1', [secretHash]);
}

export async function insertApiToken(
  database: Queryable,
  input: { personId: string; name: string; secretHash: string },
): Promise<ApiTokenRow> {
  const result = await database.query<TokenRow>(
    'insert into api_tokens (id, person_id, name, secret_hash) values ($1, $2, $3, $4) returning id, person_id, name, created_at, revoked_at',
    [randomUUID(), input.personId, input.name, input.secretHash],
  );
  return toToken(result.rows[0]!);
}

export async function findPersonByTokenHash(
  database: Queryable,
  secretHash: string,
): Promise<Person | null> {
  const result = await database.query<Person>(
    'select p.id, p.username from api_tokens t join people p on p.id = t.person_id where t.secret_hash = $1 and t.revoked_at is null',
    [secretHash],
  );
  return result.rows[0] ?? null;
}

/** Revokes a token; false when there is no such token or it was already revoked. */
export async function revokeApiToken(database: Queryable, id: string): Promise<boolean> {
  const result = await database.query<{ id: string }>(
    'update api_tokens set revoked_at = now() where id = $1 and revoked_at is null returning id',
    [id],
  );
  return result.rows.length === 1;
}

export async function listApiTokens(database: Queryable, personId: string): Promise<ApiTokenRow[]> {
  const result = await database.query<TokenRow>(
    'select id, person_id, name, created_at, revoked_at from api_tokens where person_id = $1 order by created_at, id',
    [personId],
  );
  return result.rows.map(toToken);
}

export async function roleIn(
  database: Queryable,
  projectId: string,
  personId: string,
): Promise<MemberRole | null> {
  const result = await database.query<{ role: MemberRole }>(
    'select role from project_members where project_id = $1 and person_id = $2',
    [projectId, personId],
  );
  return result.rows[0]?.role ?? null;
}

/** Adds a member, or changes the role of one already there. */
export async function putMember(
  database: Queryable,
  input: { projectId: string; personId: string; role: MemberRole },
): Promise<void> {
  await database.query(
    'insert into project_members (project_id, person_id, role) values ($1, $2, $3) on conflict (project_id, person_id) do update set role = excluded.role',
    [input.projectId, input.personId, input.role],
  );
}

/** Why a change of members was refused: it would leave the project with no owner. */
export interface LastOwnerRefusal {
  ok: false;
  reason: 'last_owner';
}

/**
 * Adds a member or changes a role, unless that demotes the project's last owner (ADR 0315). The project's row is
 * locked first, so two owners demoting each other at once cannot both succeed.
 */
export async function changeMember(
  database: Database,
  input: { projectId: string; personId: string; role: MemberRole },
): Promise<{ ok: true } | LastOwnerRefusal> {
  return database.transaction(async (transaction) => {
    if (input.role !== 'owner' && (await isLastOwner(transaction, input.projectId, input.personId)))
      return { ok: false, reason: 'last_owner' };
    await putMember(transaction, input);
    return { ok: true };
  });
}

/** Removes a member, unless they are the project's last owner (ADR 0315). False: they were not a member. */
export async function removeMember(
  database: Database,
  input: { projectId: string; personId: string },
): Promise<{ ok: true; removed: boolean } | LastOwnerRefusal> {
  return database.transaction(async (transaction) => {
    if (await isLastOwner(transaction, input.projectId, input.personId))
      return { ok: false, reason: 'last_owner' };
    const deleted = await transaction.query(
      'delete from project_members where project_id = $1 and person_id = $2 returning person_id',
      [input.projectId, input.personId],
    );
    return { ok: true, removed: deleted.rows.length > 0 };
  });
}

/** Whether the person is the only owner of the project; locks the project's row until the transaction ends. */
async function isLastOwner(
  transaction: Queryable,
  projectId: string,
  personId: string,
): Promise<boolean> {
  await transaction.query('select id from projects where id = $1 for update', [projectId]);
  const owners = await transaction.query<{ person_id: string }>(
    "select person_id from project_members where project_id = $1 and role = 'owner'",
    [projectId],
  );
  return owners.rows.length === 1 && owners.rows[0]!.person_id === personId;
}

export async function listMembers(database: Queryable, projectId: string): Promise<Member[]> {
  const result = await database.query<Member>(
    'select m.person_id, p.username, m.role from project_members m join people p on p.id = m.person_id where m.project_id = $1 order by m.created_at, p.username',
    [projectId],
  );
  return result.rows;
}

export async function listProjectsOfPerson(
  database: Queryable,
  personId: string,
): Promise<Project[]> {
  const result = await database.query<{ id: string; name: string; created_at: Date }>(
    'select p.id, p.name, p.created_at from projects p join project_members m on m.project_id = p.id where m.person_id = $1 order by p.created_at, p.id',
    [personId],
  );
  return result.rows.map((row) => ({
    id: row.id,
    name: row.name,
    created_at: row.created_at.toISOString(),
  }));
}

/** The kinds of resource a route names by id, each of which belongs to exactly one project. */
export type ResourceKind = 'project' | 'session' | 'handoff' | 'action' | 'hypothesis';

const PROJECT_OF: Record<ResourceKind, string> = {
  project: 'select id as project_id from projects where id = $1',
  session: 'select project_id from sessions where id = $1',
  handoff:
    'select s.project_id from handoffs h join sessions s on s.id = h.session_id where h.id = $1',
  action:
    "select s.project_id from session_events e join sessions s on s.id = e.session_id where e.type = 'action.proposed' and e.payload->>'action_id' = $1 limit 1",
  hypothesis:
    "select s.project_id from session_events e join sessions s on s.id = e.session_id where e.type = 'hypothesis.proposed' and e.payload->>'hypothesis_id' = $1 limit 1",
};

/** The project a resource belongs to, or null when there is no such resource. */
export async function projectOfResource(
  database: Queryable,
  kind: ResourceKind,
  id: string,
): Promise<string | null> {
  const result = await database.query<{ project_id: string }>(PROJECT_OF[kind], [id]);
  return result.rows[0]?.project_id ?? null;
}

interface TokenRow {
  id: string;
  person_id: string;
  name: string;
  created_at: Date;
  revoked_at: Date | null;
}

const toToken = (row: TokenRow): ApiTokenRow => ({
  ...row,
  created_at: row.created_at.toISOString(),
  revoked_at: row.revoked_at?.toISOString() ?? null,
});
