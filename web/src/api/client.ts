import { currentLanguage } from '../i18n/language.ts';
import { ApiError } from './api-error.ts';
import type { paths } from './openapi.gen.ts';

/**
 * The web's only way to the API, typed by the server's OpenAPI document (decision 0230, ADR 0423): a call names
 * the route as the document writes it (`/api/sessions/{id}/line`), with its path parameters, query and body as
 * that route takes them, and gets its success answer's type. A route or field the document does not have is a
 * type error at the call, never a cast.
 */
type Verb = 'get' | 'post' | 'put';

/** The routes that answer `verb`, as the document writes them. */
export type ApiPath<V extends Verb> = {
  [Path in keyof paths]: paths[Path][V] extends undefined ? never : Path;
}[keyof paths];

type Operation<V extends Verb, Path extends ApiPath<V>> = NonNullable<paths[Path][V]>;

/** What a call sends: the route's path parameters and query, and its JSON body when it takes one. */
type Request<Op> = (Op extends { parameters: infer Parameters }
  ? Pick<Parameters, 'path' & keyof Parameters> & Pick<Parameters, 'query' & keyof Parameters>
  : object) &
  (Op extends { requestBody: { content: { 'application/json': infer Body } } }
    ? { body: Body }
    : Op extends { requestBody?: { content: { 'application/json': infer Body } } }
      ? { body?: Body }
      : { body?: never });

/** The JSON of the route's success answers (`null` for one without a body, a 204). */
type Answer<Op> = Op extends { responses: infer Responses }
  ? {
      [Status in keyof Responses & (200 | 201 | 202 | 204)]: Responses[Status] extends {
        content: { 'application/json': infer Body };
      }
        ? Body
        : null;
    }[keyof Responses & (200 | 201 | 202 | 204)]
  : never;

/** The request argument, left out when the route needs nothing. */
type RequestArgument<Op> =
  object extends Request<Op> ? [request?: Request<Op>] : [request: Request<Op>];

/** Dispatched on `window` when the API answers 401: nobody is signed in any more. */
export const SIGNED_OUT_EVENT = 'forja:signed-out';

/** Calls the Forja API and returns its JSON; a non-2xx answer or a network failure throws ApiError. */
export async function callApi<V extends Verb, Path extends ApiPath<V>>(
  verb: V,
  path: Path,
  ...[request]: RequestArgument<Operation<V, Path>>
): Promise<Answer<Operation<V, Path>>> {
  const {
    path: parameters,
    query,
    body,
  } = (request ?? {}) as {
    path?: Record<string, string>;
    query?: Record<string, string | undefined>;
    body?: unknown;
  };
  // The person's language: what the server records in it (Criativo's greeting) follows the page's.
  const init: RequestInit = {
    method: verb.toUpperCase(),
    headers: { accept: 'application/json', 'accept-language': currentLanguage() },
  };
  if (body !== undefined) {
    init.headers = { ...init.headers, 'content-type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  let response: Response;
  try {
    response = await fetch(url(path, parameters, query), init);
  } catch (error) {
    throw new ApiError(0, 'network', error instanceof Error ? error.message : String(error));
  }
  const text = await response.text();
  const parsed = parseJson(text);
  if (!response.ok) {
    const error = (parsed as { error?: { code?: unknown; message?: unknown } } | null)?.error;
    const code = typeof error?.code === 'string' ? error.code : `http_${response.status}`;
    const message =
      typeof error?.message === 'string'
        ? error.message
        : `${response.status} ${response.statusText}`;
    // The sign-in ended (expired, signed out in another tab): the app shows the sign-in page again.
    if (response.status === 401 && code === 'unauthenticated')
      window.dispatchEvent(new Event(SIGNED_OUT_EVENT));
    throw new ApiError(response.status, code, message);
  }
  // The one place the answer is taken for what the document says it is; the server's tests parse real answers
  // with the same schemas (src/http/view-schemas.int.test.ts).
  return parsed as Answer<Operation<V, Path>>;
}

/** `path` with each `{name}` replaced by its parameter, encoded, and the query's defined values after `?`. */
function url(
  path: string,
  parameters: Record<string, string> = {},
  query: Record<string, string | undefined> = {},
): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(parameters[name] ?? ''),
  );
  const search = new URLSearchParams(
    Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined),
  ).toString();
  return search === '' ? filled : `${filled}?${search}`;
}

function parseJson(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export const getJson = <Path extends ApiPath<'get'>>(
  path: Path,
  ...request: RequestArgument<Operation<'get', Path>>
) => callApi('get', path, ...request);
export const postJson = <Path extends ApiPath<'post'>>(
  path: Path,
  ...request: RequestArgument<Operation<'post', Path>>
) => callApi('post', path, ...request);
export const putJson = <Path extends ApiPath<'put'>>(
  path: Path,
  ...request: RequestArgument<Operation<'put', Path>>
) => callApi('put', path, ...request);
