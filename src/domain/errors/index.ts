export { DomainError } from './domain-error.ts';
export { InvariantViolationError } from './invariant-violation-error.ts';
