import { describe, expect, it } from 'vitest';
import {
  buildSessionEvents,
  type EventSpec,
} from '../conversation/test-support/build-session-events.ts';
import { currentArchitecture } from './current-architecture.ts';

const map = (version: number, names: string[]) => ({
  version,
  modules: names.map((name) => ({ name, stack: 'TS', responsibility: name, dependsOn: [] })),
});
const declared = (type: string, data: unknown): EventSpec => ({
  type: `artifact.${type}`,
  actor: 'arquiteto',
  payload: { v: 1, data },
});

describe('currentArchitecture', () => {
  it('takes the highest version, ties to the later declaration, whole', () => {
    const events = buildSessionEvents('s1', [
      declared('module_map', map(2, ['a'])),
      declared('module_map', map(1, ['b'])),
      declared('module_map', map(2, ['c', 'd'])),
    ]);
    const architecture = currentArchitecture(events);
    expect(architecture.module_map).toMatchObject({
      version: 2,
      seq: 3,
      data: { modules: [{ name: 'c' }, { name: 'd' }] },
    });
    expect(architecture.history.module_map.map((entry) => [entry.version, entry.seq])).toEqual([
      [2, 1],
      [1, 2],
      [2, 3],
    ]);
    expect(architecture.module_contracts).toBeNull();
  });

  it('leaves out a declaration that does not parse instead of half-reading it', () => {
    const events = buildSessionEvents('s1', [
      declared('module_map', map(1, ['a'])),
      declared('module_map', { version: 9, modules: 'broken' }),
    ]);
    expect(currentArchitecture(events).module_map).toMatchObject({ version: 1 });
  });
});
