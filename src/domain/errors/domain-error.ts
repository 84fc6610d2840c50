/**
 * Base of the domain's small error hierarchy.
 *
 * Only broken invariants throw (a programmer passed something the rules can never accept, such as an event
 * from another session). Expected outcomes — a refused command, an invalid tool argument — are returned as
 * `{ ok: false, reason }` values instead, so they are never caught by accident as exceptions.
 */
export abstract class DomainError extends Error {
  /** A stable name, safe to match on across bundling and serialisation. */
  abstract override readonly name: string;
}
