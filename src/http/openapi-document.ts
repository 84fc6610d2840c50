import type { AppDependencies } from './app-dependencies.ts';
import { createApp, openApiConfig } from './app.ts';

/**
 * The API's OpenAPI document, built in-process from the routes without a database or a server: the routes are
 * given dependencies that refuse to be used (building the document never calls them). `npm run gen:api`
 * turns it into the web UI's types (decision 0230).
 */
export function buildOpenApiDocument(version = '0.0.0') {
  const app = createApp(inert('dependencies', { version }) as AppDependencies);
  return app.getOpenAPI31Document(openApiConfig(version));
}

/** A stand-in that can be read at any depth but throws when called. */
function inert(path: string, known: Record<string, unknown> = {}): object {
  const refuse = () => {
    throw new Error(`${path} is not available while building the OpenAPI document`);
  };
  return new Proxy(refuse, {
    get: (_target, key) => {
      if (typeof key === 'symbol') return undefined;
      return key in known ? known[key] : inert(`${path}.${key}`);
    },
    apply: refuse,
  });
}
