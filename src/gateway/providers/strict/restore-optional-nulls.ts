import type { JsonSchema } from '../model-provider.ts';

type Node = Record<string, unknown>;

/**
 * The arguments of a call made against an OpenAI strict schema, as the original schema takes them: a property
 * the original left optional (and that does not itself allow null) comes back as `null` when the model had no
 * value, and is removed here, at every depth of objects and arrays the schema describes. Pure.
 */
export function restoreOptionalNulls(
  args: Record<string, unknown>,
  schema: JsonSchema,
): Record<string, unknown> {
  return restoreObject(args, schema);
}

function restoreObject(value: Record<string, unknown>, schema: Node): Record<string, unknown> {
  const properties = isNode(schema['properties']) ? schema['properties'] : {};
  const required = new Set(Array.isArray(schema['required']) ? schema['required'].map(String) : []);
  const restored: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(value)) {
    const property = properties[name];
    if (!isNode(property)) {
      restored[name] = entry;
      continue;
    }
    if (entry === null && !required.has(name) && !allowsNull(property)) continue;
    restored[name] = restoreValue(entry, property);
  }
  return restored;
}

function restoreValue(value: unknown, schema: Node): unknown {
  if (isNode(value) && isNode(schema['properties'])) return restoreObject(value, schema);
  if (Array.isArray(value) && isNode(schema['items'])) {
    const items = schema['items'];
    return value.map((item) => restoreValue(item, items));
  }
  return value;
}

function allowsNull(schema: Node): boolean {
  const type = schema['type'];
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (Array.isArray(schema['enum']) && schema['enum'].includes(null)) return true;
  return (
    Array.isArray(schema['anyOf']) &&
    schema['anyOf'].some((option) => isNode(option) && allowsNull(option))
  );
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
