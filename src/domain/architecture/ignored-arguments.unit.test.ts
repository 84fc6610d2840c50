import { describe, expect, it } from 'vitest';
import { ignoredArgumentNames } from './ignored-arguments.ts';

describe('ignoredArgumentNames', () => {
  it.each([
    { args: undefined, names: [] },
    { args: null, names: [] },
    { args: {}, names: [] },
    { args: { module: 'x', projectId: 'p', limit: 3 }, names: ['limit', 'module', 'projectId'] },
    { args: 'board-engine', names: ['(a non-object argument)'] },
    { args: ['board-engine'], names: ['(a non-object argument)'] },
  ])('names $names for $args', ({ args, names }) => {
    expect(ignoredArgumentNames(args)).toEqual(names);
  });
});
