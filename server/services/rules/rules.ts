import type { Rule } from '../../contract/user';
import { invalid } from '../../core/errors';

/**
 * Compiles a rule regex. RE2-style rules often start with "(?i)"; JavaScript has no inline flag for a whole
 * pattern, so a leading (?i) becomes the i flag. Matching is unanchored, on the full virtual path.
 */
export function compileRuleRegex(raw: string): RegExp {
  let src = raw;
  let flags = '';
  if (src.startsWith('(?i)')) {
    src = src.slice(4);
    flags = 'i';
  }
  return new RegExp(src, flags);
}

/** Validates and normalises a list of rules; a bad regex is a 400 naming it, never a crash later. */
export function normaliseRules(input: unknown, where = 'rules'): Rule[] {
  if (input === null || input === undefined) return [];
  if (!Array.isArray(input)) throw invalid(`${where} must be a list`);
  return input.map((r, i) => {
    if (!r || typeof r !== 'object') throw invalid(`${where}[${i}] must be an object`);
    const o = r as Record<string, unknown>;
    const allow = !!o.allow;
    const regex = !!o.regex;
    if (regex) {
      const raw = (o.regexp as { raw?: unknown } | null)?.raw ?? o.path;
      if (typeof raw !== 'string' || raw === '') throw invalid(`${where}[${i}]: a regex rule needs a pattern`);
      try {
        compileRuleRegex(raw);
      } catch (e) {
        throw invalid(`${where}[${i}]: invalid regular expression "${raw}": ${(e as Error).message}`);
      }
      return { allow, regex: true, path: '', regexp: { raw } };
    }
    if (typeof o.path !== 'string' || o.path.trim() === '') throw invalid(`${where}[${i}]: a path rule needs a path`);
    if (/[\0-\x1f\\]/.test(o.path)) throw invalid(`${where}[${i}]: the path has forbidden characters`);
    let path = '/' + o.path.trim().split('/').filter(Boolean).join('/');
    if (path.split('/').some((s) => s === '..' || s === '.')) throw invalid(`${where}[${i}]: the path may not contain . or ..`);
    return { allow, regex: false, path, regexp: null };
  });
}

/** A compiled rule set: global rules then user rules, last match wins, default allow. */
export class RuleSet {
  private readonly compiled: { allow: boolean; path?: string; re?: RegExp }[];

  constructor(rules: Rule[]) {
    this.compiled = rules.map((r) =>
      r.regex && r.regexp ? { allow: r.allow, re: compileRuleRegex(r.regexp.raw) } : { allow: r.allow, path: r.path.replace(/\/+$/, '') },
    );
  }

  /** True when the virtual path ("/a/b") may be accessed. Path rules match on a directory boundary. */
  allows(path: string): boolean {
    let allow = true;
    for (const r of this.compiled) {
      if (r.re) {
        r.re.lastIndex = 0;
        if (r.re.test(path)) allow = r.allow;
      } else if (r.path === '' || path === r.path || path.startsWith(r.path + '/')) {
        allow = r.allow;
      }
    }
    return allow;
  }

  /**
   * What could decide visibility strictly beneath the virtual folder `path` other than what decides it for the
   * folder itself: the path rules naming something below it, and whether any regex rule exists (a regex may
   * match anywhere). With neither, every descendant shares the folder's answer (folder sizes take a shortcut).
   */
  beneath(path: string): { paths: string[]; regex: boolean } {
    const paths: string[] = [];
    let regex = false;
    for (const r of this.compiled) {
      if (r.re) regex = true;
      else if (r.path && (path === '/' || r.path.startsWith(path + '/')) && !paths.includes(r.path)) paths.push(r.path);
    }
    return { paths, regex };
  }

  get empty(): boolean {
    return this.compiled.length === 0;
  }
}
