import type { JsonSchema } from '../model-provider.ts';

/** Whose strict mode a schema is made for: their rules differ (below). */
export type StrictDialect = 'openai' | 'anthropic';

export type StrictSchemaResult =
  | { ok: true; schema: JsonSchema; optionalProperties: number; unionProperties: number }
  | { ok: false; reason: string };

type Node = Record<string, unknown>;

/** Keywords that shape a value; any other keyword (outside the soft ones) keeps a schema from being strict. */
const STRUCTURAL = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  'oneOf',
  '$ref',
  '$defs',
  'definitions',
  'description',
  'title',
  'pattern',
  'format',
]);
/** Constraints both dialects take in strict mode, or only OpenAI's (Anthropic's are said in the description). */
const OPENAI_CONSTRAINTS = new Set([
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
]);
/** Constraints neither strict mode takes: dropped from the schema and written into its description. */
const SOFT = new Set([
  'minLength',
  'maxLength',
  'default',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'examples',
  ...OPENAI_CONSTRAINTS,
]);
const FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
/** OpenAI's documented limits: nesting depth and properties in one schema. */
const MAX_DEPTH = 10;
const MAX_PROPERTIES = 5000;
const MAX_ENUM_VALUES = 1000;

/**
 * A tool's parameter schema as the provider's strict mode takes it, or why it does not qualify. Pure.
 *
 * Both dialects: the root is an object; every object gets `additionalProperties: false` (one that allows
 * other properties, a map, does not qualify); `oneOf` is sent as `anyOf`; `$schema` is dropped; constraints
 * strict mode does not take (`minLength`, `maxLength`, `default`, …) leave the schema and are written into the
 * description, since Forja validates the arguments against the full schema anyway. Keywords that change what
 * a value is (`allOf`, `not`, `if`, `patternProperties`, tuple `items`, …) keep the schema from qualifying.
 * OpenAI (function `strict: true`): every property is required, an optional one made nullable (OpenAI's own
 * way; `restoreOptionalNulls` takes the nulls back out), numeric and array bounds kept; depth at most 10, at
 * most 5,000 properties and 1,000 enum values. Anthropic (tool `strict: true`): optional properties stay
 * optional; numeric bounds and `minItems` above 1 go to the description; no `$ref`.
 */
export function toStrictSchema(schema: JsonSchema, dialect: StrictDialect): StrictSchemaResult {
  if (!isNode(schema) || schema['type'] !== 'object')
    return { ok: false, reason: 'the root is not an object schema' };
  const counts = { properties: 0, enumValues: 0, optional: 0, unions: 0 };
  try {
    const { $schema: _ignored, ...root } = schema;
    const converted = convert(root, dialect, 'parameters', 1, counts);
    if (counts.properties > MAX_PROPERTIES)
      return { ok: false, reason: `more than ${MAX_PROPERTIES} properties` };
    if (counts.enumValues > MAX_ENUM_VALUES)
      return { ok: false, reason: `more than ${MAX_ENUM_VALUES} enum values` };
    return {
      ok: true,
      schema: converted,
      optionalProperties: counts.optional,
      unionProperties: counts.unions,
    };
  } catch (error) {
    if (error instanceof NotStrict) return { ok: false, reason: error.message };
    throw error;
  }
}

class NotStrict extends Error {}

type Counts = { properties: number; enumValues: number; optional: number; unions: number };

function convert(
  node: Node,
  dialect: StrictDialect,
  path: string,
  depth: number,
  counts: Counts,
): Node {
  if (depth > MAX_DEPTH) throw new NotStrict(`${path} nests deeper than ${MAX_DEPTH} levels`);
  const out: Node = {};
  const described: string[] = [];
  for (const [keyword, value] of Object.entries(node)) {
    const soft =
      SOFT.has(keyword) &&
      !(dialect === 'openai' && OPENAI_CONSTRAINTS.has(keyword)) &&
      !(dialect === 'anthropic' && keyword === 'minItems' && (value === 0 || value === 1));
    if (soft || (keyword === 'format' && !FORMATS.has(String(value))))
      described.push(`${keyword}: ${JSON.stringify(value)}`);
    else if (STRUCTURAL.has(keyword) || SOFT.has(keyword))
      Object.assign(out, convertKeyword(keyword, value, dialect, path, depth, counts));
    else throw new NotStrict(`${path} uses ${keyword}, which strict mode does not take`);
  }
  if (described.length > 0) {
    const note = `(${described.join('; ')})`;
    out['description'] =
      typeof out['description'] === 'string' ? `${out['description']} ${note}` : note;
  }
  if (out['type'] === 'object' || (Array.isArray(out['type']) && out['type'].includes('object')))
    Object.assign(out, closeObject(out, node, dialect, path, counts));
  return out;
}

function convertKeyword(
  keyword: string,
  value: unknown,
  dialect: StrictDialect,
  path: string,
  depth: number,
  counts: Counts,
): Node {
  switch (keyword) {
    case 'type': {
      const types = Array.isArray(value) ? value : [value];
      if (types.length === 0 || !types.every((type) => typeof type === 'string' && TYPES.has(type)))
        throw new NotStrict(`${path} has a type strict mode does not take`);
      return { type: value };
    }
    case 'properties': {
      if (!isNode(value)) throw new NotStrict(`${path}.properties is not an object`);
      const properties: Node = {};
      for (const [name, property] of Object.entries(value)) {
        if (!isNode(property)) throw new NotStrict(`${path}.${name} is not a schema`);
        counts.properties += 1;
        properties[name] = convert(property, dialect, `${path}.${name}`, depth + 1, counts);
      }
      return { properties };
    }
    case 'items':
      if (!isNode(value)) throw new NotStrict(`${path} has tuple items`);
      return { items: convert(value, dialect, `${path}[]`, depth, counts) };
    case 'anyOf':
    case 'oneOf': {
      if (!Array.isArray(value) || !value.every(isNode))
        throw new NotStrict(`${path}.${keyword} is not a list of schemas`);
      return {
        anyOf: value.map((option, index) =>
          convert(option, dialect, `${path}|${index}`, depth, counts),
        ),
      };
    }
    case '$defs':
    case 'definitions': {
      if (dialect === 'anthropic') throw new NotStrict(`${path} uses ${keyword}`);
      if (!isNode(value)) throw new NotStrict(`${path}.${keyword} is not an object`);
      const definitions: Node = {};
      for (const [name, definition] of Object.entries(value)) {
        if (!isNode(definition)) throw new NotStrict(`${path}.${keyword}.${name} is not a schema`);
        definitions[name] = convert(definition, dialect, `${path}.${name}`, depth, counts);
      }
      return { [keyword]: definitions };
    }
    case '$ref':
      if (dialect === 'anthropic' || typeof value !== 'string' || !value.startsWith('#'))
        throw new NotStrict(`${path} uses a $ref strict mode does not take`);
      return { $ref: value };
    case 'enum':
      if (
        !Array.isArray(value) ||
        value.some((entry) => typeof entry === 'object' && entry !== null)
      )
        throw new NotStrict(`${path}.enum is not a list of plain values`);
      counts.enumValues += value.length;
      return { enum: value };
    case 'required':
    case 'additionalProperties':
      return {};
    default:
      return { [keyword]: value };
  }
}

/** `additionalProperties: false`; for OpenAI every property required, the optional ones nullable. */
function closeObject(
  out: Node,
  node: Node,
  dialect: StrictDialect,
  path: string,
  counts: Counts,
): Node {
  const extra = node['additionalProperties'];
  if (extra !== undefined && extra !== false)
    throw new NotStrict(`${path} allows properties of any name, which strict mode does not take`);
  const properties = isNode(out['properties']) ? out['properties'] : {};
  const required = new Set(Array.isArray(node['required']) ? node['required'].map(String) : []);
  const names = Object.keys(properties);
  for (const name of names) {
    const property = properties[name] as Node;
    if (Array.isArray(property['type']) || Array.isArray(property['anyOf'])) counts.unions += 1;
  }
  if (dialect === 'anthropic') {
    counts.optional += names.filter((name) => !required.has(name)).length;
    return {
      ...(isNode(out['properties']) ? {} : { properties: {} }),
      required: names.filter((name) => required.has(name)),
      additionalProperties: false,
    };
  }
  for (const name of names)
    if (!required.has(name)) {
      counts.optional += 1;
      properties[name] = nullable(properties[name] as Node, `${path}.${name}`);
    }
  return {
    ...(isNode(out['properties']) ? {} : { properties: {} }),
    required: names,
    additionalProperties: false,
  };
}

/** OpenAI's optional property: required, and null allowed. */
function nullable(property: Node, path: string): Node {
  if (Array.isArray(property['anyOf']))
    return { ...property, anyOf: [...property['anyOf'], { type: 'null' }] };
  if (property['$ref'] !== undefined || property['const'] !== undefined)
    return { anyOf: [property, { type: 'null' }] };
  const type = property['type'];
  if (type === undefined) throw new NotStrict(`${path} has no type`);
  const types = Array.isArray(type) ? type : [type];
  const withNull = types.includes('null') ? types : [...types, 'null'];
  const enumValues = Array.isArray(property['enum'])
    ? { enum: property['enum'].includes(null) ? property['enum'] : [...property['enum'], null] }
    : {};
  return { ...property, type: withNull, ...enumValues };
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
