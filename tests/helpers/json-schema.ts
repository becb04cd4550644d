/**
 * A small JSON Schema checker for the keywords our OpenAPI document uses (type, const, enum, properties,
 * required, additionalProperties, patternProperties, items, anyOf, minimum, minLength). Returns the problems found;
 * an unknown keyword is itself a problem, so the checker cannot silently pass what it does not understand.
 */
const KNOWN = new Set(['type', 'const', 'enum', 'properties', 'required', 'additionalProperties', 'patternProperties', 'items', 'anyOf', 'minimum', 'maximum', 'minLength', 'maxLength', 'description', 'examples', 'format', 'title', 'default', 'minItems', 'maxItems']);

const typeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v);

export function checkSchema(schema: Record<string, any>, value: unknown, at = '$'): string[] {
  const errors: string[] = [];
  for (const k of Object.keys(schema)) if (!KNOWN.has(k)) errors.push(`${at}: schema keyword ${k} not understood by the checker`);
  if (schema.type) {
    const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type];
    const actual = typeOf(value);
    if (!types.includes(actual) && !(actual === 'integer' && types.includes('number'))) errors.push(`${at}: expected ${types.join('|')}, got ${actual}`);
  }
  if ('const' in schema && value !== schema.const) errors.push(`${at}: expected ${JSON.stringify(schema.const)}`);
  if (schema.enum && !schema.enum.includes(value)) errors.push(`${at}: not one of ${JSON.stringify(schema.enum)}`);
  if (typeof value === 'number' && schema.minimum !== undefined && value < schema.minimum) errors.push(`${at}: below ${schema.minimum}`);
  if (typeof value === 'string' && schema.minLength !== undefined && value.length < schema.minLength) errors.push(`${at}: shorter than ${schema.minLength}`);
  if (schema.anyOf && !schema.anyOf.some((s: Record<string, any>) => checkSchema(s, value, at).length === 0)) errors.push(`${at}: matches none of anyOf`);
  if (typeOf(value) === 'object') {
    const obj = value as Record<string, unknown>;
    for (const r of schema.required ?? []) if (!(r in obj)) errors.push(`${at}: missing ${r}`);
    for (const [k, v] of Object.entries(obj)) {
      const prop = schema.properties?.[k];
      const pattern = Object.entries(schema.patternProperties ?? {}).find(([re]) => new RegExp(re).test(k))?.[1] as Record<string, any> | undefined;
      if (prop) errors.push(...checkSchema(prop, v, `${at}.${k}`));
      else if (pattern) errors.push(...checkSchema(pattern, v, `${at}.${k}`));
      else if (schema.additionalProperties === false) errors.push(`${at}: unexpected property ${k}`);
      else if (typeof schema.additionalProperties === 'object') errors.push(...checkSchema(schema.additionalProperties, v, `${at}.${k}`));
    }
  }
  if (Array.isArray(value) && schema.items) value.forEach((v, i) => errors.push(...checkSchema(schema.items, v, `${at}[${i}]`)));
  return errors;
}
