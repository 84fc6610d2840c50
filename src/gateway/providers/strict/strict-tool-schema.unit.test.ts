import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { restoreOptionalNulls } from './restore-optional-nulls.ts';
import { toStrictSchema } from './strict-tool-schema.ts';

type Node = Record<string, unknown>;
type Generated = { schema: Node; value: fc.Arbitrary<unknown> };

/** Schemas of the grammar strict mode takes (with soft constraints in it), each with values valid for it. */
const leaf: fc.Arbitrary<Generated> = fc.oneof(
  fc
    .record({
      minLength: fc.option(fc.nat(3), { nil: undefined }),
      maxLength: fc.option(fc.integer({ min: 4, max: 9 }), { nil: undefined }),
    })
    .map(({ minLength, maxLength }) => ({
      schema: {
        type: 'string',
        description: 'a text',
        ...(minLength === undefined ? {} : { minLength }),
        ...(maxLength === undefined ? {} : { maxLength }),
      },
      value: fc.string({ minLength: minLength ?? 0, maxLength: maxLength ?? 9 }),
    })),
  fc.constant({
    schema: { type: 'integer', minimum: 0, maximum: 99 },
    value: fc.integer({ min: 0, max: 99 }),
  }),
  fc.constant({ schema: { type: 'boolean' }, value: fc.boolean() }),
  fc.constant({ schema: { type: 'string', enum: ['a', 'b'] }, value: fc.constantFrom('a', 'b') }),
);

/** An object schema nesting objects at most `depth` levels below it, and values for it. */
function objectOf(depth: number): fc.Arbitrary<Generated> {
  const child: fc.Arbitrary<Generated> =
    depth === 0
      ? leaf
      : fc.oneof(
          leaf,
          objectOf(depth - 1),
          objectOf(depth - 1).map((items) => ({
            schema: { type: 'array', items: items.schema, maxItems: 3 },
            value: fc.array(items.value, { maxLength: 3 }),
          })),
        );
  return fc
    .uniqueArray(
      fc.record({ name: fc.constantFrom('a', 'b', 'c', 'd'), required: fc.boolean(), child }),
      { selector: (entry) => entry.name, maxLength: 4 },
    )
    .map((entries) => ({
      schema: {
        type: 'object',
        properties: Object.fromEntries(entries.map((entry) => [entry.name, entry.child.schema])),
        required: entries.filter((entry) => entry.required).map((entry) => entry.name),
      },
      value: fc
        .tuple(
          ...entries.map((entry) =>
            entry.required ? entry.child.value : fc.option(entry.child.value, { nil: undefined }),
          ),
        )
        .map((values) =>
          Object.fromEntries(
            entries.flatMap((entry, index) =>
              values[index] === undefined ? [] : [[entry.name, values[index]]],
            ),
          ),
        ),
    }));
}

const generated = objectOf(3);

/** Every object node of a schema, depth first. */
function objects(node: unknown): Node[] {
  if (typeof node !== 'object' || node === null) return [];
  const found = Object.values(node as Node).flatMap(objects);
  return (node as Node)['type'] === 'object' ||
    (Array.isArray((node as Node)['type']) &&
      ((node as Node)['type'] as unknown[]).includes('object'))
    ? [node as Node, ...found]
    : found;
}

/** A value as the model writes it under OpenAI's strict schema: every optional property present, null when absent. */
function asStrictModelWrites(value: unknown, schema: Node): unknown {
  if (Array.isArray(value))
    return value.map((item) => asStrictModelWrites(item, schema['items'] as Node));
  if (typeof value !== 'object' || value === null || schema['type'] !== 'object') return value;
  const properties = schema['properties'] as Record<string, Node>;
  return Object.fromEntries(
    Object.keys(properties).map((name) => [
      name,
      name in (value as Node)
        ? asStrictModelWrites((value as Node)[name], properties[name]!)
        : null,
    ]),
  );
}

describe('toStrictSchema for OpenAI', () => {
  it('requires every property, makes the optional ones nullable, closes every object, and says the constraints it drops', () => {
    const schema = z.toJSONSchema(
      z.object({
        query: z.string().min(1).max(200).describe('What to search'),
        k: z.number().int().min(1).max(8).optional(),
        tags: z
          .array(z.object({ name: z.string() }))
          .max(5)
          .default([]),
      }),
      { io: 'input', unrepresentable: 'any' },
    ) as Node;
    const result = toStrictSchema(schema, 'openai');
    expect(result).toMatchObject({ ok: true, optionalProperties: 2 });
    if (!result.ok) return;
    expect(result.schema).toEqual({
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What to search (minLength: 1; maxLength: 200)' },
        k: { type: ['integer', 'null'], minimum: 1, maximum: 8 },
        tags: {
          type: ['array', 'null'],
          items: {
            type: 'object',
            properties: { name: { type: 'string' } },
            required: ['name'],
            additionalProperties: false,
          },
          maxItems: 5,
          description: '(default: [])',
        },
      },
      required: ['query', 'k', 'tags'],
      additionalProperties: false,
    });
  });

  it('holds for any schema of the grammar: closed objects, all required, soft constraints gone, nulls restored to the original value', () => {
    fc.assert(
      fc.property(
        generated.chain((entry) => fc.tuple(fc.constant(entry.schema), entry.value)),
        ([schema, value]) => {
          const result = toStrictSchema(schema, 'openai');
          expect(result.ok).toBe(true);
          if (!result.ok) return;
          for (const node of objects(result.schema)) {
            expect(node['additionalProperties']).toBe(false);
            expect(node['required']).toEqual(Object.keys(node['properties'] as Node));
          }
          expect(JSON.stringify(result.schema)).not.toMatch(/"(minLength|maxLength|default)"/);
          const written = asStrictModelWrites(value, schema) as Record<string, unknown>;
          expect(restoreOptionalNulls(written, schema)).toEqual(value);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('does not qualify a schema with a keyword that changes what a value is, or a map, naming where', () => {
    const forbidden = fc.constantFrom(
      ['allOf', [{ type: 'string' }]],
      ['not', { type: 'string' }],
      ['if', { type: 'string' }],
      ['patternProperties', { '^x': { type: 'string' } }],
      ['prefixItems', [{ type: 'string' }]],
    );
    fc.assert(
      fc.property(generated, forbidden, fc.nat(), (entry, [keyword, value], pick) => {
        const schema = structuredClone(entry.schema);
        const nodes = [schema, ...Object.values(schema['properties'] as Node)] as Node[];
        const target = nodes[pick % nodes.length]!;
        target[keyword as string] = value;
        const result = toStrictSchema(schema, 'openai');
        expect(result).toMatchObject({
          ok: false,
          reason: expect.stringContaining(String(keyword)),
        });
      }),
    );
    expect(
      toStrictSchema(
        {
          type: 'object',
          properties: { labels: { type: 'object', additionalProperties: { type: 'string' } } },
        },
        'openai',
      ),
    ).toEqual({
      ok: false,
      reason: 'parameters.labels allows properties of any name, which strict mode does not take',
    });
    expect(toStrictSchema({ anyOf: [{ type: 'object' }] }, 'openai').ok).toBe(false);
  });

  it('never throws, whatever the schema', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.constantFrom('openai' as const, 'anthropic' as const),
        (schema, dialect) => {
          const wrapped = { type: 'object', properties: { x: schema } };
          toStrictSchema(wrapped as Node, dialect);
          toStrictSchema(schema as Node, dialect);
        },
      ),
    );
  });
});

describe('toStrictSchema for Anthropic', () => {
  it('keeps optional properties optional, closes objects, and says the bounds its strict mode does not take', () => {
    const result = toStrictSchema(
      {
        type: 'object',
        properties: {
          k: { type: 'integer', minimum: 1, maximum: 8 },
          ids: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 50 },
        },
        required: ['ids'],
      },
      'anthropic',
    );
    expect(result).toEqual({
      ok: true,
      optionalProperties: 1,
      unionProperties: 0,
      schema: {
        type: 'object',
        properties: {
          k: { type: 'integer', description: '(minimum: 1; maximum: 8)' },
          ids: {
            type: 'array',
            items: { type: 'string' },
            minItems: 1,
            description: '(maxItems: 50)',
          },
        },
        required: ['ids'],
        additionalProperties: false,
      },
    });
    expect(
      toStrictSchema({ type: 'object', properties: { r: { $ref: '#/$defs/x' } } }, 'anthropic').ok,
    ).toBe(false);
  });
});

describe('restoreOptionalNulls', () => {
  it('removes only the nulls of optional properties that do not take null themselves', () => {
    const schema = {
      type: 'object',
      properties: {
        a: { type: 'string' },
        b: { type: ['string', 'null'] },
        c: { type: 'string' },
        d: { type: 'array', items: { type: 'object', properties: { e: { type: 'string' } } } },
      },
      required: ['c'],
    };
    expect(
      restoreOptionalNulls({ a: null, b: null, c: null, d: [{ e: null }], z: null }, schema),
    ).toEqual({
      b: null,
      c: null,
      d: [{}],
      z: null,
    });
  });
});
