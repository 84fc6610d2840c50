import { currentLanguage } from '../i18n/language.ts';
import { ApiError } from './api-error.ts';

type Method = 'GET' | 'POST' | 'PUT';

/** Dispatched on `window` when the API answers 401: nobody is signed in any more. */
export const SIGNED_OUT_EVENT = 'forja:signed-out';

/** Calls the Forja API and returns its JSON; a non-2xx answer or a network failure throws ApiError. */
export async function callApi<T>(method: Method, path: string, body?: unknown): Promise<T> {
  // The person's language: what the server records in it (Criativo's greeting) follows the page's.
  const init: RequestInit = {
    method,
    headers: { accept: 'application/json', 'accept-language': currentLanguage() },
  };
  if (body !== undefined) {
    init.headers = { ...init.headers, 'content-type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  let response: Response;
  try {
    response = await fetch(path, init);
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
  return parsed as T;
}

function parseJson(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export const getJson = <T>(path: string) => callApi<T>('GET', path);
export const postJson = <T>(path: string, body?: unknown) => callApi<T>('POST', path, body);
export const putJson = <T>(path: string, body: unknown) => callApi<T>('PUT', path, body);
