import type { JsonSchema } from './compact.js';
import type { ToolSpec } from './tool-spec.js';

/** Only `fields` of an object schema (those it has). */
function picked(schema: JsonSchema, fields: readonly string[]): JsonSchema {
  const properties = schema.properties ?? {};
  return {
    ...schema,
    properties: Object.fromEntries(
      fields.flatMap((field) => {
        const property = properties[field];
        return property === undefined ? [] : [[field, property]];
      }),
    ),
    required: (schema.required ?? []).filter((field) => fields.includes(field)),
  };
}

/** The answer's schema as the tool's view shapes it (see `shapeAnswer`). */
export function viewed(data: JsonSchema, spec: ToolSpec): JsonSchema {
  const { itemFields, omit = [] } = spec.view ?? {};
  const items = data.type === 'array' ? data : data.properties?.items;
  const itemsShaped =
    itemFields === undefined || items?.items === undefined
      ? items
      : { ...items, items: picked(items.items, itemFields) };
  if (data.type === 'array') return itemsShaped ?? data;
  const properties = Object.fromEntries(
    Object.entries(data.properties ?? {}).filter(([field]) => !omit.includes(field)),
  );
  if (itemsShaped !== undefined) properties.items = itemsShaped;
  return {
    ...data,
    properties,
    required: (data.required ?? []).filter((field) => !omit.includes(field)),
  };
}

/** The answer as the tool's view shapes it: listed items cut to `itemFields`, `omit` dropped. */
export function shapeAnswer(data: unknown, spec: ToolSpec): unknown {
  const { itemFields, omit = [] } = spec.view ?? {};
  const pick = (item: unknown) =>
    itemFields === undefined || typeof item !== 'object' || item === null
      ? item
      : Object.fromEntries(Object.entries(item).filter(([field]) => itemFields.includes(field)));
  if (Array.isArray(data)) return data.map(pick);
  if (typeof data !== 'object' || data === null) return data;
  const shaped: Record<string, unknown> = Object.fromEntries(
    Object.entries(data).filter(([field]) => !omit.includes(field)),
  );
  if (Array.isArray(shaped.items)) shaped.items = shaped.items.map(pick);
  return shaped;
}
