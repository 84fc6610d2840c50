import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildSessionEvents } from '../conversation/test-support/build-session-events.ts';
import {
  CORE_ARTIFACT_DEFINITIONS,
  createArtifactRegistry,
  defaultArtifactRegistry,
} from './artifact-registry.ts';
import { validateEmitArtifact } from './validate-emit-artifact.ts';

// Given a session where the person spoke (1), Criativo answered (2) and a tool ran (3).
const session = buildSessionEvents('session-1', [
  {
    type: 'chat.message',
    actor: 'user',
    payload: { v: 1, text: 'Clinics book appointments online' },
  },
  {
    type: 'agent.response',
    actor: 'criativo',
    payload: { v: 1, agent: 'criativo', text: 'Who cancels?' },
  },
  { type: 'tool.completed', actor: 'criativo', payload: { v: 1 } },
]);
const rule = {
  title: 'Cancellation window',
  statement: 'A patient may cancel up to 24 hours before.',
};

describe('validateEmitArtifact', () => {
  it('accepts a business rule citing conversation events and returns the artifact event to append', () => {
    const result = validateEmitArtifact(
      {
        type: 'business_rule',
        data: { title: '  Cancellation window ', statement: rule.statement },
        origin: [1, 2, 1],
      },
      session,
    );
    expect(result).toEqual({
      ok: true,
      artifact: {
        type: 'business_rule',
        event_type: 'artifact.business_rule',
        payload: { v: 1, data: rule, origin: [1, 2] },
      },
    });
  });

  it('refuses product_brief as system-only, telling the model how a brief comes to exist', () => {
    const result = validateEmitArtifact({ type: 'product_brief', data: {}, origin: [1] }, session);
    expect(result).toMatchObject({ ok: false, code: 'system_only' });
    expect(!result.ok && result.reason).toContain(
      '"product_brief" cannot be emitted with emit_artifact',
    );
    expect(!result.ok && result.reason).toContain('Estou pronto para produzir');
  });

  it('refuses an unknown type listing only the types the tool accepts', () => {
    const result = validateEmitArtifact({ type: 'user_story', data: rule, origin: [1] }, session);
    expect(result).toEqual({
      ok: false,
      code: 'unknown_type',
      reason:
        'type: "user_story" is not an artifact type; valid types are business_rule, epic, story, task',
    });
  });

  it.each([
    ['not an object', 'business_rule', 'arguments must be an object'],
    [
      'a missing type',
      { data: rule, origin: [1] },
      'type: must be one of business_rule, epic, story, task',
    ],
  ])('refuses %s as invalid arguments', (_case, args, reason) => {
    const result = validateEmitArtifact(args, session);
    expect(result).toMatchObject({ ok: false, code: 'invalid_arguments' });
    expect(!result.ok && result.reason).toContain(reason);
  });

  it.each([
    [{ title: '   ', statement: rule.statement }, 'business_rule data.title: must not be empty'],
    [{ title: rule.title }, 'business_rule data.statement: must be a string'],
    [
      { title: 'x'.repeat(161), statement: rule.statement },
      'data.title: must be at most 160 characters',
    ],
    [{ ...rule, priority: 'high' }, 'data: unknown field(s) priority; remove them'],
  ])('refuses invalid data naming the path and the rule: %j', (data, reason) => {
    const result = validateEmitArtifact({ type: 'business_rule', data, origin: [1] }, session);
    expect(result).toMatchObject({ ok: false, code: 'invalid_data' });
    expect(!result.ok && result.reason).toContain(reason);
  });

  it.each([[undefined], [null], [[]]])('refuses a business rule whose origin is %j', (origin) => {
    const result = validateEmitArtifact({ type: 'business_rule', data: rule, origin }, session);
    expect(result).toEqual({
      ok: false,
      code: 'origin_empty',
      reason:
        'origin: business_rule requires a non-empty list of seqs of the chat.message / agent.response events it came from',
    });
  });

  it('refuses origin seqs that are not conversation events of this session, naming them', () => {
    const result = validateEmitArtifact(
      { type: 'business_rule', data: rule, origin: [2, 3, 99] },
      session,
    );
    expect(result).toEqual({
      ok: false,
      code: 'origin_invalid',
      reason: 'origin: seqs 3, 99 are not chat.message / agent.response events of this session',
    });
  });

  it('refuses origin entries that are not positive integers, naming their positions', () => {
    const result = validateEmitArtifact(
      { type: 'business_rule', data: rule, origin: [1, '2', 0, 1.5] },
      session,
    );
    expect(result).toEqual({
      ok: false,
      code: 'origin_invalid',
      reason: 'origin[1], origin[2], origin[3]: must be a positive integer seq',
    });
  });

  it('accepts a backlog task without origin and stores no origin key', () => {
    const task = {
      id: 'AT-276',
      story_id: 'HS-071',
      title: 'Slot table',
      description: 'Create it',
      acceptance_criteria: ['exists'],
    };
    const result = validateEmitArtifact({ type: 'task', data: task }, session);
    expect(result).toEqual({
      ok: true,
      artifact: { type: 'task', event_type: 'artifact.task', payload: { v: 1, data: task } },
    });
  });
});

describe('validateEmitArtifact properties', () => {
  const conversationSeqs = [1, 2];

  it('accepts any non-empty origin drawn from the conversation events', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...conversationSeqs), { minLength: 1, maxLength: 10 }),
        (origin) => {
          const result = validateEmitArtifact(
            { type: 'business_rule', data: rule, origin },
            session,
          );
          expect(result.ok).toBe(true);
        },
      ),
    );
  });

  it('refuses any origin holding a seq that is not a conversation event, naming exactly those seqs', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...conversationSeqs), { maxLength: 5 }),
        fc.uniqueArray(fc.integer({ min: 3, max: 10_000 }), { minLength: 1, maxLength: 5 }),
        (good, bad) => {
          const result = validateEmitArtifact(
            { type: 'business_rule', data: rule, origin: [...good, ...bad] },
            session,
          );
          expect(result).toMatchObject({ ok: false, code: 'origin_invalid' });
          const named = !result.ok
            ? result.reason.match(/seqs? ([\d, ]+) (is|are) not/)?.[1]
            : undefined;
          expect(named?.split(', ').map(Number)).toEqual(bad);
        },
      ),
    );
  });

  it('refuses any type that is not registered', () => {
    fc.assert(
      fc.property(
        fc
          .string({ minLength: 1 })
          .filter((type) => defaultArtifactRegistry.get(type) === undefined),
        (type) => {
          expect(validateEmitArtifact({ type, data: rule, origin: [1] }, session)).toMatchObject({
            ok: false,
            code: 'unknown_type',
          });
        },
      ),
    );
  });
});

describe('createArtifactRegistry as the extension point', () => {
  // Shaped like the Arquiteto's definitions, which say nothing about origin.
  const moduleMap = {
    type: 'module_map',
    schema: z.strictObject({ modules: z.array(z.string()) }),
    systemOnly: false,
    versioned: true,
  };
  const projectImage = {
    type: 'project_image',
    schema: z.object({}),
    systemOnly: true,
    versioned: false,
  };

  it('accepts registered extension types and refuses system-only ones', () => {
    const registry = createArtifactRegistry([
      ...CORE_ARTIFACT_DEFINITIONS,
      moduleMap,
      projectImage,
    ]);
    expect(registry.emittableTypes).toEqual([
      'business_rule',
      'epic',
      'story',
      'task',
      'module_map',
    ]);
    expect(
      validateEmitArtifact(
        { type: 'module_map', data: { modules: ['billing'] } },
        session,
        registry,
      ),
    ).toMatchObject({ ok: true });
    expect(validateEmitArtifact({ type: 'project_image', data: {} }, session, registry)).toEqual({
      ok: false,
      code: 'system_only',
      reason:
        'type: "project_image" cannot be emitted with emit_artifact: it is produced by the system only',
    });
  });

  it('throws on a repeated or malformed type, since that is a wiring bug', () => {
    expect(() => createArtifactRegistry([moduleMap, moduleMap])).toThrow(
      '"module_map" is registered twice',
    );
    expect(() => createArtifactRegistry([{ ...moduleMap, type: 'Module-Map' }])).toThrow(
      'must match',
    );
  });
});
