import { invalid } from '../../core/errors';

/**
 * The If request header of RFC 4918 §10.4: lists of conditions, OR-ed; each list a conjunction of state tokens
 * (`<urn:uuid:…>`) and entity tags (`[…]`), each possibly negated with `Not`. Lists are untagged (about the
 * request-URI) or tagged with the resource they are about (`<http://host/dav/a> (…)`).
 */
export interface IfCondition {
  not: boolean;
  kind: 'token' | 'etag';
  value: string;
}

export interface IfList {
  /** The resource tag as written (an absolute URL or an absolute path), or null for an untagged list. */
  tag: string | null;
  conditions: IfCondition[];
}

/** A header longer than this, or with more conditions, is refused: each condition may cost a lookup. */
const MAX_HEADER = 16 * 1024;
const MAX_CONDITIONS = 100;

/** Parses an If header; null when there is none. A malformed header is a 400 (RFC 4918 §10.4: the grammar is strict). */
export function parseIf(header: string | null): IfList[] | null {
  if (header === null || header.trim() === '') return null;
  if (header.length > MAX_HEADER) throw invalid('If header too long');
  const lists: IfList[] = [];
  let i = 0;
  let tag: string | null = null;
  let tagged: boolean | null = null;
  let count = 0;
  const bad = (why: string) => invalid(`malformed If header: ${why}`);
  const skip = () => {
    while (i < header.length && /[ \t\r\n]/.test(header[i]!)) i++;
  };
  /** `<…>`: a resource tag or a state token (a Coded-URL never holds '>' nor spaces). */
  const angle = (): string => {
    const end = header.indexOf('>', i + 1);
    if (end < 0) throw bad('unterminated <');
    const v = header.slice(i + 1, end);
    if (v === '' || /\s/.test(v)) throw bad('bad URL');
    i = end + 1;
    return v;
  };
  /** `[entity-tag]`: an optional W/ then a quoted string. */
  const bracket = (): string => {
    let j = i + 1;
    if (header.startsWith('W/', j)) j += 2;
    if (header[j] !== '"') throw bad('entity tag must be quoted');
    const close = header.indexOf('"', j + 1);
    if (close < 0 || header[close + 1] !== ']') throw bad('unterminated entity tag');
    const v = header.slice(i + 1, close + 1);
    i = close + 2;
    return v;
  };
  for (skip(); i < header.length; skip()) {
    const c = header[i];
    if (c === '<') {
      if (tagged === false) throw bad('tagged and untagged lists mixed');
      tagged = true;
      tag = angle();
      skip();
      if (header[i] !== '(') throw bad('a resource tag needs a list');
      continue;
    }
    if (c !== '(') throw bad(`unexpected ${JSON.stringify(c)}`);
    tagged ??= false;
    i++;
    const conditions: IfCondition[] = [];
    for (skip(); header[i] !== ')'; skip()) {
      if (i >= header.length) throw bad('unterminated list');
      let not = false;
      if (header.slice(i, i + 3).toLowerCase() === 'not' && /[\s<[]/.test(header[i + 3] ?? '')) {
        not = true;
        i += 3;
        skip();
      }
      if (header[i] === '<') conditions.push({ not, kind: 'token', value: angle() });
      else if (header[i] === '[') conditions.push({ not, kind: 'etag', value: bracket() });
      else throw bad('a condition is a <state token> or an [entity tag]');
      if (++count > MAX_CONDITIONS) throw bad('too many conditions');
    }
    i++;
    if (conditions.length === 0) throw bad('empty list');
    lists.push({ tag: tagged ? tag : null, conditions });
  }
  if (lists.length === 0) throw bad('no list');
  return lists;
}

/** The state tokens a header submits (RFC 4918 §10.4.1: named without Not, in any list). */
export function submittedTokens(lists: IfList[] | null): Set<string> {
  const out = new Set<string>();
  for (const l of lists ?? []) for (const c of l.conditions) if (c.kind === 'token' && !c.not) out.add(c.value);
  return out;
}

/** Entity tags compared weakly: `W/"x"` and `"x"` name the same state (a client may have seen either form). */
export const sameEtag = (a: string, b: string): boolean => a.replace(/^W\//, '') === b.replace(/^W\//, '');

/** What a condition is checked against: a state token on a resource, and a resource's current ETag. */
export interface IfFacts {
  tokenOn(token: string, path: string): Promise<boolean>;
  etagOf(path: string): Promise<string | null>;
}

/**
 * Whether the header holds (RFC 4918 §10.4.2–3): the lists are grouped by the resource they are about (untagged:
 * `requestPath`; tagged: the tag's path, via `pathOfTag`, tags outside this server ignored); each group needs one
 * list whose every condition holds.
 */
export async function ifHolds(lists: IfList[], requestPath: string, pathOfTag: (tag: string) => string | null, facts: IfFacts): Promise<boolean> {
  const groups = new Map<string, IfList[]>();
  for (const l of lists) {
    const path = l.tag === null ? requestPath : pathOfTag(l.tag);
    if (path === null) continue;
    groups.set(path, [...(groups.get(path) ?? []), l]);
  }
  for (const [path, group] of groups) {
    let any = false;
    for (const l of group) if ((any = await listHolds(l, path, facts))) break;
    if (!any) return false;
  }
  return true;
}

async function listHolds(l: IfList, path: string, facts: IfFacts): Promise<boolean> {
  for (const c of l.conditions) {
    let held: boolean;
    if (c.kind === 'token') held = await facts.tokenOn(c.value, path);
    else {
      const etag = await facts.etagOf(path);
      held = etag !== null && sameEtag(etag, c.value);
    }
    if (held === c.not) return false;
  }
  return true;
}
