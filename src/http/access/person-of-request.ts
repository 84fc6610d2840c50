import type { Context } from 'hono';
import { PERSON_ACTOR } from '../../domain/conversation/index.ts';
import type { MemberRole, Person } from '../../store/index.ts';
import { type ApiErrorBody, apiError } from '../api-error.ts';

/** Who sent the request and their role in the project it names, as the access middleware found them. */
interface RequestAccess {
  person: Person;
  role: MemberRole | null;
}

// Keyed by the context, not the request: middleware such as bodyLimit replace `context.req.raw`.
const found = new WeakMap<Context, RequestAccess>();

export function rememberAccess(context: Context, access: RequestAccess): void {
  found.set(context, access);
}

/** The signed-in person, or null when accounts are not in use (loopback without any account). */
export function personOf(context: Context): Person | null {
  return found.get(context)?.person ?? null;
}

/** The person's role in the project of the route's resource (null without accounts). */
export function roleOf(context: Context): MemberRole | null {
  return found.get(context)?.role ?? null;
}

/** The `actor` of the events this request causes: the person's id, or `user` when accounts are not in use. */
export function actorOf(context: Context): string {
  return personOf(context)?.id ?? PERSON_ACTOR;
}

/**
 * The 403 body when the request would change a project's settings (budget, instructions, members) and its
 * person is not an owner of the project (ADR 0315); null when they are, or when accounts are not in use.
 */
export function notOwnerError(context: Context, what: string): ApiErrorBody | null {
  if (personOf(context) === null || roleOf(context) === 'owner') return null;
  return apiError('not_owner', `Only an owner of the project ${what}.`);
}
