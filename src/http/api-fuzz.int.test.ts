import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Forja } from '../composition.ts';
import { createScriptedProvider } from '../gateway/providers/index.ts';
import { setProjectBudget } from '../gateway/index.ts';
import { testDatabaseEngines } from '../store/testing/test-databases.ts';
import { requestJson, startTestForja } from '../testing/forja-harness.ts';

/**
 * A fuzz of every route of /api/openapi.json with bad and edge input: NUL and lone surrogates in every text,
 * numbers past int32 and in hex, wrong types, unknown fields, bad ids, bodies that are empty, malformed or not
 * JSON. Whatever comes in: never a 5xx; every 4xx is the API's JSON error naming a field or a rule; a refused
 * request stores nothing (every table counted before and after). The project's budget is 0, so a request
 * that reaches the model is refused by the budget (409) instead of needing a scripted turn.
 */

const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 40);
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const BRIEF = {
  title: 'Padaria',
  summary: 'Pão de madrugada.',
  problem: 'Não há pão cedo.',
  audience: 'Vizinhos',
  goals: ['Entregar às 6h'],
};

interface Operation {
  method: string;
  path: string;
  parameters: Array<{ name: string; in: 'path' | 'query' | 'header' }>;
  body: { required: boolean; properties: Record<string, JsonSchema> } | null;
}
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  $ref?: string;
  anyOf?: JsonSchema[];
}

/** The strings Postgres refuses or that sit on an edge of a rule. */
const edgeStrings = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  'end\ud83d',
  '',
  '   ',
  '0x10',
  '2147483648',
  '-1',
  '1e3',
  '🙂 ok',
  'x'.repeat(70_000),
];
const edgeValues: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  2147483648,
  // biome-ignore lint/correctness/noPrecisionLoss: a number past 2^53 is a bad input the fuzz sends on purpose
  9007199254740993,
  1e300,
  [],
  {},
  ['\u0000'],
  [1],
  { '\u0000': 1 },
  ...edgeStrings,
];
const edgeText = fc.constantFrom(...edgeStrings);
const edgeValue = fc.constantFrom(...edgeValues);

function valueFor(
  schema: JsonSchema,
  resolve: (schema: JsonSchema) => JsonSchema,
): fc.Arbitrary<unknown> {
  const resolved = resolve(schema);
  const types = [resolved.type, ...(resolved.anyOf ?? []).map((option) => resolve(option).type)]
    .flat()
    .filter((type) => type !== undefined);
  const plausible: fc.Arbitrary<unknown>[] = [];
  if (types.includes('string'))
    plausible.push(
      fc.constantFrom('ok', 'pedidos', 'a message'),
      edgeText,
      fc.string({ unit: 'binary', maxLength: 12 }),
    );
  if (types.includes('integer') || types.includes('number'))
    plausible.push(fc.integer({ min: -2, max: 20 }), fc.constantFrom(2147483648, 1e300, 0.5, -0));
  if (types.includes('boolean')) plausible.push(fc.boolean());
  if (types.includes('array'))
    plausible.push(
      fc.array(resolved.items ? valueFor(resolved.items, resolve) : edgeValue, { maxLength: 3 }),
    );
  if (types.includes('null')) plausible.push(fc.constant(null));
  return plausible.length === 0 ? edgeValue : fc.oneof(...plausible, edgeValue);
}

/** Whether a value carries text Postgres refuses, in a string or a key, at any depth. */
function carriesUnstorableText(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000') || !value.isWellFormed();
  if (Array.isArray(value)) return value.some(carriesUnstorableText);
  if (value !== null && typeof value === 'object')
    return Object.entries(value).some(
      ([key, inner]) => carriesUnstorableText(key) || carriesUnstorableText(inner),
    );
  return false;
}

interface GeneratedBody {
  raw: string | undefined;
  contentType: string | undefined;
  /** Certainly bad, whatever the route: it must be refused. */
  bad: boolean;
}

function bodyArbitrary(
  operation: Operation,
  resolve: (schema: JsonSchema) => JsonSchema,
): fc.Arbitrary<GeneratedBody> {
  const properties = operation.body?.properties ?? {};
  const names = Object.keys(properties);
  const objectBody = fc
    .record({
      known: fc
        .subarray(names)
        .chain((chosen) =>
          fc.tuple(
            ...chosen.map((name) =>
              valueFor(properties[name]!, resolve).map((value) => [name, value] as const),
            ),
          ),
        ),
      unknown: fc.array(
        fc.tuple(fc.constantFrom('extra', '\u0000', 'actor', '__proto__', 'x\ud800'), edgeValue),
        { maxLength: 1 },
      ),
    })
    .map(({ known, unknown }) => {
      const body: Record<string, unknown> = {};
      for (const [name, value] of [...known, ...unknown])
        Object.defineProperty(body, name, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      return { raw: JSON.stringify(body), bad: unknown.length > 0 || carriesUnstorableText(body) };
    });
  // Every one of these is bad for every route but '' and '{}' (what a route without a body accepts).
  const rawBody = fc
    .constantFrom(
      '',
      ' ',
      '{',
      '{"a":',
      'null',
      '[]',
      '[1,2]',
      '"text"',
      '42',
      '{}',
      '{"x":1}',
      '{"name":"\\ud800"}',
      '{"text":"\\u0000"}',
      '1e999',
      'name=x',
      '\u0000',
    )
    .map((raw) => ({ raw, bad: raw !== '' && raw !== '{}' }));
  const raw = fc.oneof(
    { weight: 4, arbitrary: objectBody },
    { weight: 2, arbitrary: rawBody },
    { weight: 1, arbitrary: fc.constant({ raw: undefined, bad: false }) },
  );
  const contentType = fc.oneof(
    { weight: 5, arbitrary: fc.constant('application/json') },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        undefined,
        'text/plain',
        'application/json; charset=utf-8',
        'application/x-www-form-urlencoded',
        'multipart/form-data',
        'application/vnd.forja+json',
        'application/jsonx',
        'application/json ;x',
      ),
    },
  );
  return fc.record({ raw, contentType }).map(({ raw, contentType }) => {
    const declaredJson =
      contentType !== undefined && /^application\/([\w.-]+\+)?json(;|$)/.test(contentType);
    return {
      raw: raw.raw,
      contentType,
      bad: raw.bad || (raw.raw !== undefined && raw.raw !== '' && !declaredJson),
    };
  });
}

interface GeneratedParameter {
  value: string | undefined;
  bad: boolean;
}

const NUMERIC_PARAMETERS = new Set(['after', 'limit', 'last-event-id']);
const UNSTORABLE = ['%00', '%ED%A0%80', 'a%00b'];
const NOT_DECIMAL = [
  '0x10',
  '2147483648',
  '3000000000',
  '4294967296',
  '1000000000000',
  '99999999999999999999',
  '-1',
  '1.5',
  '1e3',
  '%201',
  '1%20',
  '',
  'abc',
  '+1',
  '０',
];

function parameterArbitrary(
  name: string,
  where: string,
  fixtureIds: string[],
): fc.Arbitrary<GeneratedParameter> {
  const good = (...values: string[]) =>
    fc.constantFrom(...values).map((value) => ({ value, bad: false }));
  const bad = (...values: string[]) =>
    fc.constantFrom(...values).map((value) => ({ value, bad: true }));
  const other = fc
    .constantFrom('..', '%2e%2e', 'a'.repeat(300), 'UPPER')
    .map((value) => ({ value, bad: false }));
  if (where === 'path' && name === 'id') {
    return fc.oneof(
      {
        weight: 5,
        arbitrary: good(...fixtureIds, UNKNOWN_ID, ...fixtureIds.map((id) => id.toUpperCase())),
      },
      { weight: 1, arbitrary: fc.uuid().map((value) => ({ value, bad: false })) },
      { weight: 2, arbitrary: bad(...UNSTORABLE, ...NOT_DECIMAL, 'abc') },
    );
  }
  if (where === 'path')
    return fc.oneof(
      good('criativo', 'po', 'arquiteto', 'dev-catalogo', 'mystery'),
      bad(...UNSTORABLE),
      other,
    );
  if (NUMERIC_PARAMETERS.has(name)) {
    return fc.oneof(
      { weight: 1, arbitrary: fc.constant({ value: undefined, bad: false }) },
      { weight: 1, arbitrary: good('0', '1', '3', '100', '2147483647') },
      { weight: 3, arbitrary: bad(...UNSTORABLE, ...NOT_DECIMAL) },
    );
  }
  return fc.oneof(
    fc.constant({ value: undefined, bad: false }),
    good('pedidos', 'board-engine'),
    bad(...UNSTORABLE),
    other,
  );
}

describe.each(testDatabaseEngines())('the API under a fuzz of bad input on $name', (engine) => {
  let forja: Forja;
  let projectId: string;
  let sessionIds: string[];
  let handoffId: string;
  let countAll: () => Promise<Record<string, number>>;
  beforeAll(async () => {
    // One scripted turn makes the first session's brief and its handoff to the PO; then the budget is 0.
    forja = await startTestForja(engine, {
      provider: createScriptedProvider({
        script: { turns: [{ agent: 'criativo', text: JSON.stringify(BRIEF) }] },
      }),
    });
    projectId = (await requestJson(forja, 'POST', '/api/projects', { name: 'Padaria' })).body.id;
    sessionIds = [];
    for (const title of ['with a brief', 'ready to produce', 'fresh'])
      sessionIds.push(
        (await requestJson(forja, 'POST', `/api/projects/${projectId}/sessions`, { title })).body
          .id,
      );
    for (const sessionId of sessionIds.slice(0, 2))
      await requestJson(forja, 'POST', `/api/sessions/${sessionId}/agents/criativo/start`);
    const ready = await requestJson(
      forja,
      'POST',
      `/api/sessions/${sessionIds[0]}/readiness?wait=true`,
    );
    expect(ready.status).toBe(201);
    handoffId = ready.body.handoff.id;
    await setProjectBudget(forja.database, projectId, 0);
    const tables = (
      await forja.database.query<{ name: string }>(
        `select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`,
      )
    ).rows.map((row) => row.name);
    const sql = `select ${tables.map((table) => `(select count(*) from "${table}")::int as "${table}"`).join(', ')}`;
    countAll = async () => (await forja.database.query<Record<string, number>>(sql)).rows[0]!;
  });
  afterAll(() => forja?.close());

  async function documentedOperations(): Promise<{
    operations: Operation[];
    resolve: (schema: JsonSchema) => JsonSchema;
  }> {
    const document = (await requestJson(forja, 'GET', '/api/openapi.json')).body;
    const resolve = (schema: JsonSchema): JsonSchema =>
      schema.$ref ? resolve(document.components.schemas[schema.$ref.split('/').pop()!]) : schema;
    const operations: Operation[] = [];
    for (const [path, item] of Object.entries(
      document.paths as Record<string, Record<string, any>>,
    )) {
      for (const [method, operation] of Object.entries(item)) {
        const jsonSchema = operation.requestBody?.content?.['application/json']?.schema;
        const properties = jsonSchema ? (resolve(jsonSchema).properties ?? {}) : {};
        operations.push({
          method: method.toUpperCase(),
          path,
          parameters: operation.parameters ?? [],
          body: jsonSchema
            ? { required: operation.requestBody.required === true, properties }
            : null,
        });
      }
    }
    return { operations, resolve };
  }

  it('never answers 5xx, answers every 4xx in the JSON error shape, and stores nothing when it refuses', async () => {
    const { operations, resolve } = await documentedOperations();
    expect(operations.length).toBeGreaterThanOrEqual(35);
    const failures: string[] = [];
    for (const operation of operations) {
      const pathParameters = [...operation.path.matchAll(/{(\w+)}/g)].map((match) => match[1]!);
      const queryParameters = operation.parameters
        .filter((parameter) => parameter.in === 'query')
        .map((parameter) => parameter.name);
      const headerParameters = operation.parameters
        .filter((parameter) => parameter.in === 'header')
        .map((parameter) => parameter.name);
      // The ids that exist for this route's first segment, so most cases reach the handler and the database.
      const fixtureIds = operation.path.startsWith('/api/sessions/')
        ? sessionIds
        : operation.path.startsWith('/api/projects/')
          ? [projectId]
          : operation.path.startsWith('/api/handoffs/')
            ? [handoffId]
            : [];
      const request = fc.record({
        path: fc.tuple(
          ...pathParameters.map((name) => parameterArbitrary(name, 'path', fixtureIds)),
        ),
        query: fc.tuple(
          ...queryParameters.map((name) => parameterArbitrary(name, 'query', fixtureIds)),
        ),
        headers: fc.tuple(
          ...headerParameters.map((name) => parameterArbitrary(name, 'header', fixtureIds)),
        ),
        body:
          operation.method === 'GET'
            ? fc.constant<GeneratedBody>({ raw: undefined, contentType: undefined, bad: false })
            : bodyArbitrary(operation, resolve),
      });
      await fc
        .assert(
          fc.asyncProperty(request, async ({ path, query, headers, body }) => {
            let url = operation.path;
            pathParameters.forEach(
              (name, index) => (url = url.replace(`{${name}}`, path[index]!.value ?? '')),
            );
            const search = queryParameters
              .flatMap((name, index) =>
                query[index]!.value === undefined ? [] : [`${name}=${query[index]!.value}`],
              )
              .join('&');
            if (search) url += `?${search}`;
            const requestHeaders: Record<string, string> = {};
            // A header value is printable ASCII here (fetch cannot send a NUL in one, nor decodes percent-encoding).
            headerParameters.forEach(
              (name, index) =>
                /^[\x20-\x7e]*$/.test(headers[index]!.value ?? '\u0000') &&
                !headers[index]!.value!.includes('%') &&
                (requestHeaders[name] = headers[index]!.value!),
            );
            const bad =
              body.bad ||
              [...path, ...query].some((parameter) => parameter.bad) ||
              headerParameters.some(
                (name, index) => headers[index]!.bad && requestHeaders[name] !== undefined,
              );
            if (body.contentType !== undefined) requestHeaders['content-type'] = body.contentType;
            const before = await countAll();
            const response = await forja.app.request(url, {
              method: operation.method,
              headers: requestHeaders,
              ...(body.raw === undefined ? {} : { body: body.raw }),
            });
            const label = `${operation.method} ${url} ${JSON.stringify(requestHeaders)} ${JSON.stringify(body.raw?.slice(0, 200))}`;
            const contentType = response.headers.get('content-type') ?? '';
            const text = contentType.includes('text/event-stream')
              ? (await response.body?.cancel(), '')
              : await response.text();
            await forja.conversation.drain();
            expect(response.status, `${label} → ${text.slice(0, 300)}`).toBeLessThan(500);
            if (bad)
              expect(
                [400, 404, 413, 415],
                `${label} is bad input, yet → ${response.status} ${text.slice(0, 200)}`,
              ).toContain(response.status);
            if (response.status >= 400) {
              const error = JSON.parse(text).error;
              expect(error, label).toMatchObject({
                code: expect.stringMatching(/^[a-z_]+$/),
                message: expect.stringMatching(/\S/),
              });
              if (error.code === 'invalid_field' || error.code === 'unknown_field')
                expect(error.field, label).toEqual(expect.any(String));
              expect(
                await countAll(),
                `${label} → ${response.status} ${text.slice(0, 300)} stored something`,
              ).toEqual(before);
            }
            await setProjectBudget(forja.database, projectId, 0);
          }),
          // Each query or header parameter multiplies what there is to try; GET cases are cheap.
          {
            numRuns: RUNS_PER_ROUTE * (1 + queryParameters.length + headerParameters.length),
            endOnFailure: true,
          },
        )
        .catch((error: Error) =>
          failures.push(
            `${operation.method} ${operation.path}: ${error.message
              .split('\n')
              .filter((line) => /Counterexample|Got|Caused by|Error|expected/.test(line))
              .slice(0, 3)
              .join(' | ')}`,
          ),
        );
    }
    expect(failures).toEqual([]);
  }, 240_000);
});
