import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { FieldProblem } from './errors.js';

const shared: Options = {
  allErrors: true,
  removeAdditional: true,
  useDefaults: true,
  strict: false,
  keywords: ['example'],
};

// Query strings and path parameters are text, so they are coerced to the declared types. JSON
// bodies are typed already: coercing there would quietly turn `"username": 12` into "12".
const textAjv = addFormats.default(new Ajv({ ...shared, coerceTypes: 'array' }));
const bodyAjv = addFormats.default(new Ajv({ ...shared, coerceTypes: false }));

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object);

/** Ajv's errors as the contract's `details`: which field, and what is wrong with it. */
export function fieldProblems(
  errors: readonly { instancePath: string; message?: string; params: Record<string, unknown> }[],
  context: string | undefined,
): FieldProblem[] {
  return errors.map((error) => {
    const path = error.instancePath.replace(/^\//, '').replaceAll('/', '.');
    const missing = error.params.missingProperty;
    const field =
      typeof missing === 'string' ? (path === '' ? missing : `${path}.${missing}`) : path;
    return {
      field: field === '' ? (context ?? 'body') : field,
      message: error.message ?? 'is invalid',
    };
  });
}
