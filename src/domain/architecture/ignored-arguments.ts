/**
 * Names the arguments a model sent to a tool that takes none, so they can be ignored AND said to be ignored
 * (a silent drop would let the model believe it chose the module). Sorted, so the note is deterministic.
 */
export function ignoredArgumentNames(rawArguments: unknown): string[] {
  if (rawArguments === undefined || rawArguments === null) return [];
  if (typeof rawArguments !== 'object' || Array.isArray(rawArguments))
    return ['(a non-object argument)'];
  return Object.keys(rawArguments).sort((left, right) =>
    left < right ? -1 : left > right ? 1 : 0,
  );
}
