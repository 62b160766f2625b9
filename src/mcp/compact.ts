export type JsonSchema = Record<string, unknown> & {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  description?: string;
};

/**
 * Definitions every tool may share: its schema carries those it uses under `$defs` and refers
 * to them, instead of repeating them at every id, time and amount.
 */
const SHARED: Record<string, { schema: JsonSchema; matches: (schema: JsonSchema) => boolean }> = {
  uuid: {
    schema: { type: 'string', format: 'uuid' },
    matches: (schema) => schema.type === 'string' && schema.format === 'uuid',
  },
  timestamp: {
    schema: { type: 'string', format: 'date-time' },
    matches: (schema) => schema.type === 'string' && schema.format === 'date-time',
  },
};

/**
 * The API's words that tell an HTTP client how to send a secret, as they are true for a tool:
 * the tool's own description says where a key goes; a receipt token is an argument.
 */
const notes: Record<string, string> = {
  'Shown once, now: save it. Send it as `Authorization: Bearer <api_key>`.':
    'Shown only now: keep it. The tool’s description says how this server uses it.',
  'Your private receipt token (`rq_` + 43 characters). Shown only now; send it as a bearer token.':
    'Your private receipt token (`rq_…`). Shown only now: pass it as `receipt_token` to read_request or delete_request.',
};

/** Money without words of its own: the tool descriptions say amounts are credits. */
const isPlainCredits = (schema: JsonSchema) =>
  schema.type === 'number' && schema.description === 'Credits, at most 2 decimal places.';

/** What an answer's schema need not repeat: the API guarantees these limits of its own output. */
const INPUT_ONLY = new Set([
  'example',
  // Every field an answer's schema names is present (null where it has no value), as the
  // server's instructions say once instead of each object listing all its fields again.
  'required',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'pattern',
  'x-pattern-message',
]);

/** `anyOf` of one-value string enums (how TypeBox writes a union of literals) as one enum. */
function mergedEnum(parts: JsonSchema[]): JsonSchema | undefined {
  const values = parts.map((part) =>
    part.type === 'string' && Array.isArray(part.enum) && part.enum.length === 1
      ? (part.enum[0] as unknown)
      : undefined,
  );
  return values.every((value) => typeof value === 'string')
    ? { type: 'string', enum: values }
    : undefined;
}

/** `anyOf` of a plain type (or a shared number or string) and null, as one `type` list. */
function nullable(parts: JsonSchema[]): JsonSchema | undefined {
  const [value, none] = parts;
  if (parts.length !== 2 || none?.type !== 'null' || value === undefined) return undefined;
  const shared = Object.values(SHARED).find((entry) => entry.matches(value));
  const plain =
    isPlainCredits(value) ||
    Object.keys(value).every((key) => key === 'type' || INPUT_ONLY.has(key));
  const type = shared === undefined ? (plain ? value.type : undefined) : shared.schema.type;
  return typeof type !== 'string' || type === 'object' ? undefined : { type: [type, 'null'] };
}

/**
 * A schema without examples (the model sees real values) and with shared parts referred to;
 * an answer's schema (`output`) also without the limits only a request needs.
 */
function compact(
  schema: JsonSchema,
  used: Map<string, number>,
  output: boolean,
  depth = 0,
): JsonSchema {
  if (output && isPlainCredits(schema)) return { type: 'number' };
  for (const [name, shared] of Object.entries(SHARED)) {
    if (!shared.matches(schema)) continue;
    used.set(name, (used.get(name) ?? 0) + 1);
    const description =
      schema.description === shared.schema.description ? undefined : schema.description;
    return { $ref: `#/$defs/${name}`, ...(description === undefined ? {} : { description }) };
  }
  const merged = Array.isArray(schema.anyOf)
    ? (mergedEnum(schema.anyOf as JsonSchema[]) ??
      (output ? nullable(schema.anyOf as JsonSchema[]) : undefined))
    : undefined;
  if (merged !== undefined) {
    const { anyOf: _parts, ...rest } = schema;
    return compact({ ...rest, ...merged }, used, output, depth);
  }
  const result: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'example' || (output && INPUT_ONLY.has(key))) continue;
    // The API's own keywords (`x-pattern-message`: its words for a pattern, which the
    // description says too) are no JSON Schema: a strict validator refuses the whole schema.
    if (key.startsWith('x-')) continue;
    if (output && ((key === 'format' && value === 'uri') || value === false)) continue;
    if (key === 'description' && typeof value === 'string' && !output) {
      result.description = briefly(value);
      continue;
    }
    if (output && key === 'description' && typeof value === 'string') {
      // Fields of objects nested in an answer (a session's product, say) are described where
      // that object is the answer (get_product); repeating it in every tool doubled the list.
      if (depth > DESCRIBED_DEPTH) continue;
      result.description = briefly(
        Object.entries(notes).reduce((text, [from, to]) => text.replace(from, to), value),
      );
      continue;
    }
    if (key === 'properties') {
      result.properties = Object.fromEntries(
        Object.entries(value as Record<string, JsonSchema>).map(([name, property]) => [
          name,
          compact(property, used, output, depth + 1),
        ]),
      );
    } else if (key === 'items') {
      // A list's elements are described as the list itself is.
      result[key] = compact(value as JsonSchema, used, output, depth - 1);
    } else if (key === 'additionalProperties' && typeof value === 'object') {
      result[key] = compact(value as JsonSchema, used, output, depth);
    } else if (key === 'anyOf' || key === 'oneOf' || key === 'allOf') {
      result[key] = (value as JsonSchema[]).map((part) => compact(part, used, output, depth));
    } else {
      result[key] = value;
    }
  }
  return result;
}

/**
 * How deep in an answer's schema fields keep their descriptions: the answer's own fields and
 * those of the objects it lists, not those of objects nested in them.
 */
const DESCRIBED_DEPTH = 1;

/** A field's description longer than this keeps its first sentence: the tool's text says the rest. */
const BRIEF = 100;

function briefly(text: string): string {
  if (text.length <= BRIEF) return text;
  const end = firstSentenceEnd(text);
  if (end !== -1 && end <= BRIEF * 2) return text.slice(0, end + 1);
  // A first sentence this long is cut between words, and says so.
  const space = text.lastIndexOf(' ', BRIEF * 2);
  return space === -1 || text.length <= BRIEF * 2 ? text : `${text.slice(0, space)} …`;
}

/**
 * Where the first sentence ends: a full stop before a space (or the end) outside parentheses and
 * not that of `e.g.` or `i.e.`. A colon or semicolon ends no sentence: what follows it is what the
 * sentence announced (`What you need: 20–2,000 characters…`). -1 if there is none.
 */
function firstSentenceEnd(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const character = text[i];
    if (character === '(') depth++;
    else if (character === ')') depth = Math.max(0, depth - 1);
    else if (
      character === '.' &&
      depth === 0 &&
      (i + 1 === text.length || /\s/.test(text[i + 1] ?? '')) &&
      !/\b(e\.g|i\.e)$/.test(text.slice(Math.max(0, i - 3), i))
    ) {
      return i;
    }
  }
  return -1;
}

/** A definition used fewer times than this is written in place: a reference would be longer. */
const SHARED_FROM = 3;

export function withDefinitions(
  schema: JsonSchema,
  output: boolean,
): JsonSchema & { type: 'object' } {
  const used = new Map<string, number>();
  const compacted = compact(schema, used, output);
  const shared = [...used].filter(([, count]) => count >= SHARED_FROM).map(([name]) => name);
  const $defs = Object.fromEntries(shared.sort().map((name) => [name, SHARED[name]?.schema ?? {}]));
  return {
    ...(inlined(compacted, shared) as JsonSchema),
    type: 'object',
    ...(shared.length === 0 ? {} : { $defs }),
  };
}

/** The schema with references to definitions other than `shared` replaced by the definition. */
function inlined(value: unknown, shared: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => inlined(item, shared));
  if (typeof value !== 'object' || value === null) return value;
  const { $ref, ...rest } = value as JsonSchema;
  const name = typeof $ref === 'string' ? $ref.replace('#/$defs/', '') : undefined;
  const target = name === undefined || shared.includes(name) ? undefined : SHARED[name]?.schema;
  const entries = Object.entries(target === undefined ? value : { ...target, ...rest });
  return Object.fromEntries(entries.map(([key, item]) => [key, inlined(item, shared)]));
}
