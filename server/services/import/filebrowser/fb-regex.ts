import { compileRuleRegex } from '../../rules/rules';

/**
 * filebrowser compiles rule patterns with Go's regexp (RE2); our rules run on JavaScript's RegExp
 * (rules/rules.ts compileRuleRegex). Most patterns mean the same in both. The RE2 spellings JavaScript lacks are
 * rewritten here when a faithful rewrite exists; anything else is refused with the reason, so the importer reports
 * the rule instead of storing one that matches something else.
 */
const POSIX_CLASSES: Record<string, string> = {
  alnum: '0-9A-Za-z', alpha: 'A-Za-z', ascii: '\\x00-\\x7F', blank: '\\t ', cntrl: '\\x00-\\x1F\\x7F', digit: '0-9',
  graph: '!-~', lower: 'a-z', print: ' -~', punct: '!-\\/:-@\\[-`{-~', space: '\\t\\n\\v\\f\\r ', upper: 'A-Z',
  word: '0-9A-Za-z_', xdigit: '0-9A-Fa-f',
};

export type RegexTranslation = { ok: true; raw: string; changed: boolean } | { ok: false; why: string };

/** Rewrites one RE2 pattern into the form compileRuleRegex accepts with the same meaning, or says why it cannot. */
export function translateRe2(re2: string): RegexTranslation {
  let src = re2;
  let prefix = '';
  // A leading case-insensitive flag is what compileRuleRegex understands; other inline flags have no equivalent there.
  if (src.startsWith('(?i)')) {
    prefix = '(?i)';
    src = src.slice(4);
  }
  if (/\(\?[imsU-]+[):]/.test(src)) return { ok: false, why: 'inline flags other than a leading (?i) are not supported' };
  if (/\\[QE]/.test(src)) return { ok: false, why: '\\Q…\\E quoting is not supported' };
  if (/\\[pP]\{?[A-Z]/.test(src) && !/\\[pP]\{[A-Za-z_]+\}/.test(src)) return { ok: false, why: 'one-letter Unicode classes (\\pL) are not supported' };
  let out = src
    .replace(/\(\?P</g, '(?<') // named groups
    .replace(/\\A/g, '^')
    .replace(/\\z/g, '$')
    .replace(/\[:(\^?)([a-z]+):\]/g, (m, neg: string, name: string) => {
      const cls = POSIX_CLASSES[name];
      if (!cls) return m;
      return neg ? `__NEG__${cls}__` : cls;
    });
  if (out.includes('__NEG__')) return { ok: false, why: 'negated POSIX classes ([[:^alpha:]]) are not supported' };
  // \C (any byte) and \Z do not exist in RE2 either way; lazy and possessive forms are the same. Unicode classes
  // need the u flag, which rule patterns are not compiled with.
  if (/\\[pP]\{/.test(out)) return { ok: false, why: 'Unicode classes (\\p{…}) are not supported' };
  out = prefix + out;
  try {
    compileRuleRegex(out);
  } catch (e) {
    return { ok: false, why: `not a valid pattern here: ${(e as Error).message}` };
  }
  return { ok: true, raw: out, changed: out !== re2 };
}
