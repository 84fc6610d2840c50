import { OpenAPIHono } from '@hono/zod-openapi';
import { validationErrorBody } from './validation-error.ts';

const TARGET_NAMES: Record<string, string> = {
  json: 'request body',
  query: 'query string',
  param: 'path',
};

/** A router whose validation failures answer 400 in the API's error shape, naming the field and the rule. */
export function newRouter() {
  return new OpenAPIHono({
    defaultHook: (result, context) => {
      if (!result.success)
        return context.json(
          validationErrorBody(result.error, TARGET_NAMES[result.target] ?? result.target),
          400,
        );
    },
  });
}
