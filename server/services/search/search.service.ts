import { invalid } from '../../core/errors';
import type { Actor } from '../actor';
import { authorizePath, visible } from '../policy/file-policy';
import { mimeOf } from '../files/detect-type';

export interface SearchQuery {
  caseSensitive: boolean;
  types: string[];
  terms: string[];
}

/**
 * The reference's syntax: `case:sensitive`, repeatable `type:image|audio|music|video|pdf|<ext>` (ORed), and
 * terms (a "quoted phrase" is one term; otherwise words, any of which may match a name).
 */
export function parseQuery(raw: string): SearchQuery {
  let text = raw;
  const caseSensitive = /(^|\s)case:sensitive(\s|$)/.test(text);
  text = text.replace(/(^|\s)case:(in)?sensitive(?=\s|$)/g, ' ');
  const types: string[] = [];
  text = text.replace(/(^|\s)type:(\S+)/g, (_m, _s, t: string) => {
    types.push(t);
    return ' ';
  });
  text = text.trim();
  if (!caseSensitive) text = text.toLowerCase();
  let terms: string[];
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) terms = [text.slice(1, -1)];
  else terms = text.split(' ').filter(Boolean);
  return { caseSensitive, types, terms };
}

/** True when a name holds one of the query's terms (every name, for a query without terms). */
export function nameMatches(q: SearchQuery, name: string): boolean {
  if (!q.terms.length) return true;
  const n = q.caseSensitive ? name : name.toLowerCase();
  return q.terms.some((t) => n.includes(t));
}

export function typeMatches(name: string, isDir: boolean, types: string[]): boolean {
  if (!types.length) return true;
  if (isDir) return false;
  const lower = name.toLowerCase();
  return types.some((t) => {
    const k = t === 'music' ? 'audio' : t;
    if (k === 'image' || k === 'audio' || k === 'video') return mimeOf(name).startsWith(`${k}/`);
    return lower.endsWith(`.${k.toLowerCase()}`);
  });
}

/** A search walk's time limit (it also stops when the client goes away). */
export const SEARCH_TIME_LIMIT_MS = 5 * 60_000;

export interface SearchHit {
  dir: boolean;
  /** Relative to the folder searched, without a leading slash. */
  path: string;
}

/**
 * Walks the folder and yields matches as they are found. Rules and dotfiles are respected: hidden entries are
 * never reported, and folders hidden by dotfile settings are not entered. A folder denied by a rule is still
 * entered, because a later rule may allow something inside it. Stops when `signal` aborts or after SEARCH_TIME_LIMIT_MS.
 */
export async function* search(actor: Actor, base: string, raw: string, signal?: AbortSignal): AsyncGenerator<SearchHit> {
  authorizePath(actor, 'read', base);
  const { stats } = await actor.fs.stat(base); // 404 for a missing folder, before anything is streamed
  if (!stats.isDirectory()) throw invalid('search needs a folder');
  const q = parseQuery(raw);
  const hideDot = !!actor.user?.hideDotfiles;
  const cut = base === '/' ? 1 : base.length + 1;
  const until = Date.now() + SEARCH_TIME_LIMIT_MS;
  for await (const e of actor.fs.walk(base, (d) => !(hideDot && d.name.startsWith('.')), signal)) {
    if (Date.now() > until) return; // a walk of a huge tree ends; the client gets what was found so far
    if (!visible(actor, e.path, e.at)) continue;
    if (!typeMatches(e.name, e.isDir, q.types)) continue;
    const rel = e.path.slice(cut);
    // As the name index answers (index-search.ts): a name match, or an entry below a folder (under the one
    // searched) whose name matches; the type filter applies to the entry either way.
    if (!nameMatches(q, e.name)) {
      const folders = rel.slice(0, Math.max(0, rel.length - e.name.length - 1));
      if (folders === '' || !folders.split('/').some((c) => nameMatches(q, c))) continue;
    }
    yield { dir: e.isDir, path: rel };
  }
}
