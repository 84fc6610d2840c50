import { DomainError } from './domain-error.ts';

/**
 * Thrown when a caller breaks a rule the domain relies on: events folded out of order, events of two
 * sessions in one fold, a negative budget, two artifact definitions with the same type.
 * Seeing it means a bug in the caller, never bad user or model input.
 */
export class InvariantViolationError extends DomainError {
  override readonly name = 'InvariantViolationError';
  /** Which invariant was broken, in a few words a log search can find (e.g. `event_order`). */
  readonly invariant: string;

  constructor(invariant: string, message: string) {
    super(`${invariant}: ${message}`);
    this.invariant = invariant;
  }
}
