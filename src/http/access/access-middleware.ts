import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { hashSecret } from '../../accounts/secrets.ts';
import {
  ACCOUNTS_CHANNEL,
  anyPersonExists,
  findPersonBySessionHash,
  findPersonByTokenHash,
  projectOfResource,
  roleIn,
  type Database,
  type Person,
  type ResourceKind,
} from '../../store/index.ts';
import { respondWithError } from '../api-error.ts';
import { rememberAccess } from './person-of-request.ts';
import { checkRequestOrigin, type NetworkPolicy } from './request-origin-rule.ts';

export const SESSION_COOKIE = 'forja_session';

/** Routes anyone may call: the liveness probe, the API document, and signing in itself. */
export const PUBLIC_API_PATHS: ReadonlySet<string> = new Set([
  '/api/health',
  '/api/openapi.json',
  '/api/auth/sign-in',
]);
/** Routes of the signed-in person that name no project's resource. */
export const ACCOUNT_API_PATHS: ReadonlySet<string> = new Set([
  '/api/projects',
  '/api/auth/me',
  '/api/auth/sign-out',
]);

const RESOURCE_PREFIXES: Record<string, ResourceKind> = {
  projects: 'project',
  sessions: 'session',
  handoffs: 'handoff',
  actions: 'action',
  hypotheses: 'hypothesis',
};
const RESOURCE_PATH = /^\/api\/([a-z]+)\/([^/]+)(?:\/|$)/;
/** A project's repository served over git's smart HTTP: `/git/<project-id>.git/…` (ADR 0356). */
const GIT_PATH = /^\/git\/([^/]+)\.git(?:\/|$)/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type PathAccess =
  | { kind: 'public' }
  | { kind: 'account' }
  | { kind: 'resource'; resource: ResourceKind; id: string }
  | { kind: 'unclassified' };

/** Which check a path gets. Every documented route is public, of the account, or of a project's resource (a test holds this). */
export function classifyPath(path: string): PathAccess {
  if (PUBLIC_API_PATHS.has(path)) return { kind: 'public' };
  if (ACCOUNT_API_PATHS.has(path)) return { kind: 'account' };
  const git = GIT_PATH.exec(path);
  if (git) return { kind: 'resource', resource: 'project', id: decodeSegment(git[1]!) };
  const match = RESOURCE_PATH.exec(path);
  const resource = match ? RESOURCE_PREFIXES[match[1]!] : undefined;
  if (match && resource !== undefined)
    return { kind: 'resource', resource, id: decodeSegment(match[2]!) };
  return { kind: 'unclassified' };
}

/** Refuses requests that break the Host or Origin rule (403 naming the rule), before anything else runs. */
export function requestOriginGuard(policy: NetworkPolicy): MiddlewareHandler {
  return async (context, next) => {
    const breach = checkRequestOrigin(
      {
        method: context.req.method,
        host: context.req.header('host'),
        origin: context.req.header('origin'),
        secFetchSite: context.req.header('sec-fetch-site'),
        localPort: (context.env as { incoming?: { socket?: { localPort?: number } } } | undefined)
          ?.incoming?.socket?.localPort,
      },
      policy,
    );
    if (breach !== null)
      return respondWithError(context, 403, breach.code, breach.message, breach.rule);
    await next();
  };
}

/** Whether accounts are required, and the end of listening for the first person. */
export interface AccountsInUse {
  inUse(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Whether accounts are required: from the moment the first person exists (remembered after). Until then the
 * answer "no one" is kept, with no query per request, for as long as this process listens for
 * `createPerson`'s notification (any process, the CLI's `forja user add` too): a notification, or a loss of the
 * listening connection, makes the next request look again. A look that a notification or a loss overtook is
 * not kept.
 */
export async function watchAccountsInUse(database: Database): Promise<AccountsInUse> {
  let inUse = false;
  let noOneKnown = false;
  let listening = false;
  /** Counts notifications and losses, so a look they overtook is not kept. */
  let changes = 0;
  const forget = () => {
    changes += 1;
    noOneKnown = false;
  };
  const unlisten = await database.listen(ACCOUNTS_CHANNEL, forget, {
    lost: () => {
      listening = false;
      forget();
    },
    restored: () => {
      listening = true;
    },
  });
  listening = true;
  return {
    async inUse() {
      if (inUse || noOneKnown) return inUse;
      const before = changes;
      const heard = listening;
      inUse = await anyPersonExists(database);
      // Listening when it looked and no change since (a loss is one): a person created after it is heard.
      if (!inUse && heard && changes === before) noOneKnown = true;
      return inUse;
    },
    close: async () => {
      listening = false;
      forget();
      await unlisten();
    },
  };
}

/**
 * Authentication and membership for every API route, in one place (ADR 0100). Without any account (loopback
 * only: `serve` refuses other addresses) nothing is checked, as before accounts existed. With accounts, a
 * request carries an API token (`Authorization: Bearer`) or the session cookie, else 401; a route naming a
 * project, session, handoff, action or hypothesis answers 404 unless the person is a member of its project, so
 * another project's ids are indistinguishable from ids that do not exist.
 */
export function accessControl(
  database: Database,
  inUse: () => Promise<boolean>,
): MiddlewareHandler {
  return async (context, next) => {
    if (!(await inUse())) return next();
    const access = classifyPath(context.req.path);
    if (access.kind === 'public') return next();
    const person = await authenticate(database, context);
    if (person === null) {
      // git asks its credential helper only when told which scheme to answer (ADR 0356).
      if (isGitPath(context.req.path)) context.header('WWW-Authenticate', 'Basic realm="Forja"');
      return respondWithError(
        context,
        401,
        'unauthenticated',
        'Sign in first (POST /api/auth/sign-in), or send an API token as Authorization: Bearer <token>.',
      );
    }
    let role = null;
    if (access.kind === 'resource' && UUID.test(access.id)) {
      const projectId = await projectOfResource(database, access.resource, access.id.toLowerCase());
      role = projectId === null ? null : await roleIn(database, projectId, person.id);
      if (role === null)
        return respondWithError(
          context,
          404,
          'not_found',
          `No ${access.resource} with id ${access.id}.`,
          'id',
        );
    }
    rememberAccess(context, { person, role });
    return next();
  };
}

/** The person a request speaks for: by its bearer token when it sends one (and only then), else by its cookie. */
async function authenticate(database: Database, context: Context): Promise<Person | null> {
  const authorization = context.req.header('authorization');
  if (authorization !== undefined) {
    const token =
      /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] ??
      (isGitPath(context.req.path) ? basicPassword(authorization) : undefined);
    return token === undefined ? null : findPersonByTokenHash(database, hashSecret(token));
  }
  const cookie = getCookie(context, SESSION_COOKIE);
  return cookie === undefined ? null : findPersonBySessionHash(database, hashSecret(cookie));
}

function isGitPath(path: string): boolean {
  return GIT_PATH.test(path);
}

/**
 * The password of `Authorization: Basic`, which git's credential helpers send: an API token, whatever the
 * user name. Only on /git/ paths, read-only: a browser remembers Basic credentials, and no other route should
 * take them.
 */
function basicPassword(authorization: string): string | undefined {
  const encoded = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization)?.[1];
  if (encoded === undefined) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 || colon === decoded.length - 1 ? undefined : decoded.slice(colon + 1);
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
