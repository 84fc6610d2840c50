import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import {
  MAX_PASSWORD_CHARACTERS,
  UNKNOWN_PERSON_HASH,
  verifyPassword,
} from '../../accounts/passwords.ts';
import { hashSecret, newSecret, SESSION_PREFIX } from '../../accounts/secrets.ts';
import {
  deleteAuthSession,
  findPersonByUsername,
  findProject,
  insertAuthSession,
  changeMember,
  listMembers,
  removeMember,
  USERNAME_PATTERN,
} from '../../store/index.ts';
import { SESSION_COOKIE } from '../access/access-middleware.ts';
import { notOwnerError, personOf } from '../access/person-of-request.ts';
import { apiError } from '../api-error.ts';
import type { AppDependencies } from '../app-dependencies.ts';
import { newRouter } from '../router.ts';
import {
  ErrorSchema,
  errorResponses,
  idParameter,
  jsonBody,
  jsonContent,
  noBody,
  text,
} from '../schemas.ts';

/** How long a sign-in lasts. */
export const SESSION_DAYS = 14;

const UsernameSchema = z
  .string()
  .regex(
    USERNAME_PATTERN,
    `must be 1 to 64 lowercase letters, digits, '.', '_' or '-' (${USERNAME_PATTERN.source})`,
  );
const SignInSchema = z
  .strictObject({
    username: UsernameSchema,
    password: text()
      .min(1, 'must not be empty')
      .max(MAX_PASSWORD_CHARACTERS, `must be at most ${MAX_PASSWORD_CHARACTERS} characters`),
  })
  .openapi('SignIn');
const PersonSchema = z.object({ id: z.uuid(), username: z.string() }).openapi('Person');
const MeSchema = z.object({ accounts: z.boolean(), person: PersonSchema.nullable() }).openapi('Me');
const MemberSchema = z
  .object({ person_id: z.uuid(), username: z.string(), role: z.enum(['owner', 'member']) })
  .openapi('Member');
const NewMemberSchema = z
  .strictObject({
    username: UsernameSchema,
    role: z.enum(['owner', 'member'], { error: "must be 'owner' or 'member'" }).default('member'),
  })
  .openapi('NewMember');
const error = (description: string) => ({
  description,
  content: { 'application/json': { schema: ErrorSchema } },
});
const projectParameters = z.object({ id: idParameter('id') });

const signIn = createRoute({
  method: 'post',
  path: '/api/auth/sign-in',
  summary:
    'Sign in with name and password: sets the HttpOnly session cookie (after 5 failures for an account from one address, or 20 from one address, each further attempt from there waits twice as long: 429 with Retry-After)',
  request: { body: jsonBody(SignInSchema) },
  responses: {
    200: jsonContent(PersonSchema, 'Signed in'),
    ...errorResponses(400, 409, 413, 415),
    401: error('Wrong name or password'),
    429: error('Too many failed attempts; see Retry-After'),
  },
});
const signOut = createRoute({
  method: 'post',
  path: '/api/auth/sign-out',
  summary: 'Sign out: ends the session of the cookie',
  request: { body: noBody },
  responses: {
    204: { description: 'Signed out' },
    ...errorResponses(400, 415),
    401: error('Not signed in'),
  },
});
const me = createRoute({
  method: 'get',
  path: '/api/auth/me',
  summary:
    'Who is signed in (accounts: false when Forja runs on loopback without accounts, and nobody needs to sign in)',
  responses: { 200: jsonContent(MeSchema, 'The person'), 401: error('Not signed in') },
});
const members = createRoute({
  method: 'get',
  path: '/api/projects/{id}/members',
  summary: "The project's members and their roles",
  request: { params: projectParameters },
  responses: {
    200: jsonContent(z.object({ members: z.array(MemberSchema) }), 'Members'),
    ...errorResponses(400, 404),
    401: error('Not signed in'),
  },
});
const addMember = createRoute({
  method: 'post',
  path: '/api/projects/{id}/members',
  summary: 'Add a person to the project, or change their role (owners only)',
  request: { params: projectParameters, body: jsonBody(NewMemberSchema) },
  responses: {
    201: jsonContent(MemberSchema, 'The member'),
    ...errorResponses(400, 404, 409, 413, 415),
    401: error('Not signed in'),
    403: error('Only an owner adds members'),
  },
});
const removeMemberRoute = createRoute({
  method: 'delete',
  path: '/api/projects/{id}/members/{username}',
  summary:
    'Remove a person from the project: an owner removes anyone, a member only themselves (409 for its last owner)',
  request: {
    params: projectParameters.extend({
      username: UsernameSchema.openapi({ param: { name: 'username', in: 'path' } }),
    }),
    body: noBody,
  },
  responses: {
    204: { description: 'Removed' },
    ...errorResponses(400, 403, 404, 409, 413, 415),
    401: error('Not signed in'),
  },
});
const lastOwner = () =>
  apiError(
    'last_owner',
    'The project must keep an owner: make another member an owner first, then change or remove this one.',
  );
const accountsNotInUse = () =>
  apiError(
    'accounts_not_in_use',
    'Projects have members only once accounts exist (create the first with `forja user add NAME`).',
  );

export function authRoutes({ database, access }: AppDependencies) {
  return newRouter()
    .openapi(signIn, async (context) => {
      if (!(await access.accountsInUse()))
        return context.json(
          apiError(
            'accounts_not_in_use',
            'Nobody needs to sign in: no account exists yet (create the first with `forja user add NAME`).',
          ),
          409,
        );
      const { username, password } = context.req.valid('json');
      const address = clientAddress(context);
      const allowance = await access.signInLimiter.allow(username, address);
      if (!allowance.ok) {
        context.header('Retry-After', String(allowance.retryAfterSeconds));
        return context.json(
          apiError(
            'too_many_attempts',
            `Too many failed sign-ins from this address (for this account, or for any); try again in ${allowance.retryAfterSeconds} s.`,
          ),
          429,
        );
      }
      const person = await findPersonByUsername(database, username);
      const matches = await verifyPassword(password, person?.password_hash ?? UNKNOWN_PERSON_HASH);
      if (person === null || !matches) {
        await access.signInLimiter.failed(username, address);
        return context.json(apiError('wrong_credentials', 'Wrong name or password.'), 401);
      }
      await access.signInLimiter.succeeded(username, address);
      const { secret, hash } = newSecret(SESSION_PREFIX);
      const maxAge = SESSION_DAYS * 24 * 60 * 60;
      await insertAuthSession(database, {
        secretHash: hash,
        personId: person.id,
        expiresAt: new Date(Date.now() + maxAge * 1000),
      });
      setCookie(context, SESSION_COOKIE, secret, {
        httpOnly: true,
        sameSite: 'Lax',
        path: '/',
        maxAge,
        secure: servedOverHttps(context, access.network.publicUrls),
      });
      return context.json({ id: person.id, username: person.username }, 200);
    })
    .openapi(signOut, async (context) => {
      const cookie = getCookie(context, SESSION_COOKIE);
      if (cookie !== undefined) await deleteAuthSession(database, hashSecret(cookie));
      deleteCookie(context, SESSION_COOKIE, { path: '/' });
      return context.body(null, 204);
    })
    .openapi(me, async (context) =>
      context.json({ accounts: await access.accountsInUse(), person: personOf(context) }, 200),
    )
    .openapi(members, async (context) => {
      const { id } = context.req.valid('param');
      if (!(await findProject(database, id)))
        return context.json(apiError('not_found', `No project with id ${id}.`, 'id'), 404);
      return context.json({ members: await listMembers(database, id) }, 200);
    })
    .openapi(addMember, async (context) => {
      const { id } = context.req.valid('param');
      if (!(await access.accountsInUse())) return context.json(accountsNotInUse(), 409);
      const notOwner = notOwnerError(context, 'adds members or changes their roles');
      if (notOwner !== null) return context.json(notOwner, 403);
      const { username, role } = context.req.valid('json');
      const person = await findPersonByUsername(database, username);
      if (person === null) return context.json(noPersonNamed(username), 404);
      const changed = await changeMember(database, { projectId: id, personId: person.id, role });
      if (!changed.ok) return context.json(lastOwner(), 409);
      return context.json({ person_id: person.id, username: person.username, role }, 201);
    })
    .openapi(removeMemberRoute, async (context) => {
      const { id, username } = context.req.valid('param');
      if (!(await access.accountsInUse())) return context.json(accountsNotInUse(), 409);
      // Anyone may leave; removing someone else is an owner's.
      const notOwner =
        personOf(context)?.username === username
          ? null
          : notOwnerError(context, 'removes other members');
      if (notOwner !== null) return context.json(notOwner, 403);
      const person = await findPersonByUsername(database, username);
      const removed =
        person === null
          ? null
          : await removeMember(database, { projectId: id, personId: person.id });
      if (removed !== null && !removed.ok) return context.json(lastOwner(), 409);
      if (removed === null || !removed.removed)
        return context.json(
          apiError('not_found', `${username} is not a member of this project.`, 'username'),
          404,
        );
      return context.body(null, 204);
    });
}

function noPersonNamed(username: string) {
  return apiError(
    'not_found',
    `No person named ${username} (create the account with \`forja user add ${username}\`).`,
    'username',
  );
}

/** The client's address for rate limiting; requests made in-process share one. */
function clientAddress(context: Context): string {
  return (
    (context.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming
      ?.socket?.remoteAddress ?? 'in-process'
  );
}

/** The cookie is `Secure` when the request came by an https FORJA_PUBLIC_URL (TLS ends at a proxy in front of Forja). */
function servedOverHttps(context: Context, publicUrls: readonly URL[]): boolean {
  const host = context.req.header('host')?.toLowerCase();
  return publicUrls.some((url) => url.protocol === 'https:' && url.host === host);
}
