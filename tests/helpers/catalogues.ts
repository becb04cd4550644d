import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Reads the translation catalogues in locales/ as flat maps ("prompts.units.days" → text). */
export const LOCALES_DIR = resolve(import.meta.dir, '../../locales');

export type Flat = Record<string, string>;

export function flatten(obj: Record<string, unknown>, prefix = '', out: Flat = {}): Flat {
  for (const [k, v] of Object.entries(obj)) {
    if (v && typeof v === 'object') flatten(v as Record<string, unknown>, `${prefix}${k}.`, out);
    else out[`${prefix}${k}`] = v as string;
  }
  return out;
}

export const catalogueFiles = (): string[] => readdirSync(LOCALES_DIR).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();

export const readCatalogue = (code: string): Flat => flatten(JSON.parse(readFileSync(join(LOCALES_DIR, `${code}.json`), 'utf8')));

export const PLURAL_FORMS = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;
const SUFFIX = new RegExp(`_(${PLURAL_FORMS.join('|')})$`);

/** Splits "files.items_few" into its base "files.items" and form "few"; keys without a plural suffix have no form. */
export function pluralParts(key: string): { base: string; form?: string } {
  const m = SUFFIX.exec(key);
  return m ? { base: key.slice(0, m.index), form: m[1] } : { base: key };
}

/** The {{placeholders}} a string uses. */
export const placeholders = (s: string): string[] => [...new Set([...s.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1]!))].sort();
