import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { FieldProblem } from './errors.js';
import { PATTERN_MESSAGE } from './schemas.js';

const shared: Options = {
  allErrors: true,
  // Each error carries the schema that failed, so a pattern's own words can explain it.
  verbose: true,
  // Fields a route does not take are dropped (whatever its schema says of others): the route
  // never sees them, and nothing refuses or names them.
  removeAdditional: 'all',
  useDefaults: true,
  strict: false,
  keywords: ['example'],
};

// Query strings and path parameters are text, so they are coerced to the declared types. JSON
// bodies are typed already: coercing there would quietly turn `"username": 12` into "12".
const textAjv = addFormats.default(new Ajv({ ...shared, coerceTypes: 'array' }));
const bodyAjv = addFormats.default(new Ajv({ ...shared, coerceTypes: false }));

const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';
/** `/api/players/me/stats` and the like: `me` is a path of its own, not an id in others. */
const ME_MESSAGE =
  'must be a player’s UUID: `me` is only the path GET /api/players/me, whose answer gives your id';

/**
 * Where in `value` a string holds U+0000, as a JSON pointer. PostgreSQL cannot store it and
 * SQLite would keep it (a task of NULs would pass a trimmed length check), so every text input
 * is refused it here, the same on both databases.
 */
function nulPointer(value: unknown, pointer = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? pointer : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = nulPointer(item, `${pointer}/${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

interface Validate {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/** The properties of an object schema that hold a UUID. */
function uuidFields(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, { format?: unknown }> }).properties;
  if (properties === undefined) return [];
  return Object.keys(properties).filter((name) => properties[name]?.format === 'uuid');
}

/** Numbers as a query string or a path writes them: decimal digits, a sign, a fraction. */
const DECIMAL: Record<string, RegExp> = { integer: /^-?\d+$/, number: /^-?\d+(\.\d+)?$/ };

/** The properties of an object schema that hold a number, with the form their text must take. */
function numericFields(schema: unknown): [string, RegExp][] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties;
  if (properties === undefined) return [];
  return Object.entries(properties).flatMap(([name, property]) => {
    const form = typeof property.type === 'string' ? DECIMAL[property.type] : undefined;
    return form === undefined ? [] : [[name, form] as [string, RegExp]];
  });
}

/** The fields of a query string that take one value (every field but a list). */
function singleValued(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties;
  if (properties === undefined) return [];
  return Object.entries(properties).flatMap(([name, property]) =>
    property.type === 'array' ? [] : [name],
  );
}

/**
 * A field of one value given more than once (`?kind=tool&kind=agent`), which the query string's
 * parser makes a list: said as such, rather than as a value of the wrong type or outside the
 * allowed ones.
 */
function repeated(data: unknown, fields: readonly string[]): ErrorObject | undefined {
  if (fields.length === 0 || typeof data !== 'object' || data === null) return undefined;
  const values = data as Record<string, unknown>;
  const name = fields.find((field) => Array.isArray(values[field]));
  if (name === undefined) return undefined;
  const times = (values[name] as unknown[]).length;
  return {
    instancePath: `/${name}`,
    schemaPath: '#',
    keyword: 'repeated',
    params: {},
    message: `was given ${times} times; give it once`,
  };
}

/**
 * The first numeric field whose text is not a plain decimal number. Coercion takes whatever
 * JavaScript's `Number` reads (`0x10`, `1e1`, ` 5`, `+5`); a client that sent those most likely
 * meant something else, so they are refused as the wrong type instead of read as 16 or 10.
 */
function notDecimal(data: unknown, fields: readonly [string, RegExp][]): ErrorObject | undefined {
  if (fields.length === 0 || typeof data !== 'object' || data === null) return undefined;
  const values = data as Record<string, unknown>;
  for (const [name, form] of fields) {
    const value = values[name];
    if (typeof value === 'string' && !form.test(value)) {
      const type = form === DECIMAL.integer ? 'integer' : 'number';
      return { instancePath: `/${name}`, schemaPath: '#', keyword: 'type', params: { type } };
    }
  }
  return undefined;
}

/** The optional properties of an object schema that do not take null. */
function optionalNotNull(schema: unknown): string[] {
  const { properties, required = [] } = schema as {
    properties?: Record<string, { type?: unknown; anyOf?: { type?: unknown }[] }>;
    required?: string[];
  };
  if (properties === undefined) return [];
  const takesNull = (property: { type?: unknown; anyOf?: { type?: unknown }[] }): boolean =>
    property.type === 'null' ||
    (Array.isArray(property.type) && property.type.includes('null')) ||
    (property.anyOf ?? []).some(takesNull);
  return Object.keys(properties).filter((name) => {
    const property = properties[name];
    return property !== undefined && !required.includes(name) && !takesNull(property);
  });
}

/**
 * An optional field sent as null is taken as not sent: many clients write every field of
 * their own type, null where they have no value, and the answer shows such a field as null.
 */
function dropNulls(data: unknown, fields: readonly string[]): void {
  if (fields.length === 0 || typeof data !== 'object' || data === null) return;
  const values = data as Record<string, unknown>;
  for (const name of fields) {
    if (values[name] === null) Reflect.deleteProperty(values, name);
  }
}

/**
 * UUIDs are case-insensitive on input (RFC 9562) and every id is stored in lower case, so an
 * id sent in capitals (as .NET and some tools write them) is lowered here, once for every
 * route and door, instead of being an unknown id (404) or somebody else's (403).
 */
function lowerUuids(data: unknown, fields: readonly string[]): void {
  if (fields.length === 0 || typeof data !== 'object' || data === null) return;
  const values = data as Record<string, unknown>;
  for (const name of fields) {
    const value = values[name];
    if (typeof value === 'string') values[name] = value.toLowerCase();
  }
}

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart, url }) => {
  const compiled = (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object);
  const uuids = uuidFields(schema);
  const playerPath = httpPart === 'params' && url.startsWith('/api/players/:id');
  const numeric = httpPart === 'body' ? [] : numericFields(schema);
  const nullable = httpPart === 'body' ? optionalNotNull(schema) : [];
  const single = httpPart === 'querystring' ? singleValued(schema) : [];
  const validate: Validate = (data) => {
    dropNulls(data, nullable);
    const malformed = repeated(data, single) ?? notDecimal(data, numeric);
    if (malformed !== undefined) {
      validate.errors = [malformed];
      return false;
    }
    // Validation first: it drops the fields the route does not take, so only a field it takes
    // is named. (A failed validation may stop before dropping them: its own errors stand.)
    const valid = compiled(data);
    validate.errors = compiled.errors;
    if (!valid) {
      if (playerPath && (data as Record<string, unknown>).id === 'me') {
        validate.errors = [
          { instancePath: '/id', schemaPath: '#', keyword: 'me', params: {}, message: ME_MESSAGE },
        ];
      }
      return false;
    }
    const pointer = nulPointer(data);
    if (pointer === undefined) {
      lowerUuids(data, uuids);
      return true;
    }
    validate.errors = [
      { instancePath: pointer, schemaPath: '#', keyword: 'nul', params: {}, message: NUL_MESSAGE },
    ];
    return false;
  };
  return validate;
};

type AjvError = Pick<ErrorObject, 'instancePath' | 'keyword' | 'params' | 'message'> & {
  schemaPath?: string;
  parentSchema?: unknown;
};

const typeNames: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'null',
};

const formatNames: Record<string, string> = {
  uuid: 'a UUID',
  email: 'an e-mail address',
  'date-time': 'an ISO 8601 date and time, such as 2026-11-01T00:00:00Z',
  uri: 'an absolute URL',
};

const listOf = (values: readonly unknown[]): string =>
  values.map((value) => (typeof value === 'string' ? value : JSON.stringify(value))).join(', ');

const orList = (words: string[]): string =>
  words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;

const characters = (limit: unknown) => `${String(limit)} character${limit === 1 ? '' : 's'}`;

/** One Ajv error as a phrase a person or an agent can act on, without Ajv's wording. */
function phrase(error: AjvError): string {
  const p = error.params;
  switch (error.keyword) {
    case 'nul':
      return NUL_MESSAGE;
    case 'me':
      return ME_MESSAGE;
    case 'repeated':
      return error.message ?? 'was given more than once; give it once';
    case 'required':
      return 'is required';
    case 'enum':
      return `must be one of: ${listOf(p.allowedValues as unknown[])}`;
    case 'const':
      return `must be ${listOf([p.allowedValue])}`;
    case 'type': {
      const types = String(p.type).split(',');
      return `must be ${orList(types.map((type) => typeNames[type] ?? type))}`;
    }
    case 'minLength':
      return `must be at least ${characters(p.limit)} long`;
    case 'maxLength':
      return `must be at most ${characters(p.limit)} long`;
    case 'minimum':
      return `must be at least ${String(p.limit)}`;
    case 'maximum':
      return `must be at most ${String(p.limit)}`;
    case 'exclusiveMinimum':
      return `must be more than ${String(p.limit)}`;
    case 'exclusiveMaximum':
      return `must be less than ${String(p.limit)}`;
    case 'multipleOf':
      return `must be a multiple of ${String(p.multipleOf)}`;
    case 'format':
      return `must be ${formatNames[String(p.format)] ?? `a valid ${String(p.format)}`}`;
    case 'pattern': {
      const words = (error.parentSchema as Record<string, unknown> | undefined)?.[PATTERN_MESSAGE];
      return typeof words === 'string' ? words : 'is not in the expected form';
    }
    case 'minItems':
      return `must have at least ${String(p.limit)} items`;
    case 'maxItems':
      return `must have at most ${String(p.limit)} items`;
    case 'additionalProperties':
      return 'is not a known field';
    default:
      return 'is invalid';
  }
}

/**
 * A union (`anyOf`) fails with one error per branch plus its own; they read as one phrase:
 * "must be a number or a string", or the allowed values when the branches are constants.
 */
function phraseOfUnion(branches: AjvError[]): string {
  const constants = branches.filter((error) => error.keyword === 'const');
  if (constants.length > 0 && constants.length === branches.length) {
    return `must be one of: ${listOf(constants.map((error): unknown => error.params.allowedValue))}`;
  }
  const types = branches.filter((error) => error.keyword === 'type');
  if (types.length === branches.length && types.length > 0) {
    const names = types.flatMap((error) => String(error.params.type).split(','));
    return `must be ${orList([...new Set(names)].map((type) => typeNames[type] ?? type))}`;
  }
  // A value of the right type that breaks a rule of its branch: that rule is the useful part.
  const specific = branches.find((error) => error.keyword !== 'type');
  return specific === undefined ? 'is invalid' : phrase(specific);
}

/** Ajv's errors as the contract's `details`: which field, and what is wrong with it. */
export function fieldProblems(
  errors: readonly AjvError[],
  context: string | undefined,
): FieldProblem[] {
  const unions = errors.filter((error) => error.keyword === 'anyOf' || error.keyword === 'oneOf');
  const inUnion = (error: AjvError) =>
    unions.find(
      (union) =>
        union !== error &&
        union.schemaPath !== undefined &&
        error.schemaPath?.startsWith(`${union.schemaPath}/`) === true,
    );
  const problems = errors
    .filter((error) => inUnion(error) === undefined)
    .map((error) => {
      const path = error.instancePath.replace(/^\//, '').replaceAll('/', '.');
      const missing: unknown = error.params.missingProperty ?? error.params.additionalProperty;
      const field =
        typeof missing === 'string' ? (path === '' ? missing : `${path}.${missing}`) : path;
      const message = unions.includes(error)
        ? phraseOfUnion(errors.filter((branch) => inUnion(branch) === error))
        : phrase(error);
      return { field: field === '' ? (context ?? 'body') : field, message };
    });
  // One entry per field and message: a union's branches may repeat the same complaint.
  return problems.filter(
    (problem, index) =>
      problems.findIndex((p) => p.field === problem.field && p.message === problem.message) ===
      index,
  );
}
