import { useEffect, useMemo, useState } from 'react';
import { compileFind, MAX_FIELD, type FindReplace } from '../../state/batch-rename';
import { replaceInWorker } from '../../state/regex-replace';

/** How long typing in the find box pauses before a regular expression runs. */
const REGEX_DEBOUNCE_MS = 150;

export type FindError = { kind: 'invalid'; message: string } | { kind: 'slow' } | { kind: 'tooLong' };

/**
 * The names after the find/replace: plain text at once (it is linear), a regular expression in a time-limited
 * worker after a pause in typing. `names` is null while a worker runs or when the find cannot be used.
 */
export function useReplacedNames(base: readonly string[], f: FindReplace): { names: readonly string[] | null; error: FindError | null } {
  const compiled = useMemo(() => compileFind(f), [f.find, f.replace, f.caseSensitive, f.regex]);
  const sync = useMemo(() => {
    if (compiled === null) return base;
    if (compiled instanceof Error || f.regex) return null;
    return base.map((n) => n.replace(compiled.re, compiled.replacement));
  }, [base, compiled, f.regex]);
  const [async, setAsync] = useState<{ compiled: unknown; base: readonly string[]; names: string[] | null; slow: boolean } | null>(null);

  useEffect(() => {
    if (compiled === null || compiled instanceof Error || !f.regex) return;
    const ctl = new AbortController();
    const timer = setTimeout(() => {
      replaceInWorker(base, compiled.re, compiled.replacement, ctl.signal).then(
        (out) => setAsync({ compiled, base, names: out === 'timeout' ? null : out, slow: out === 'timeout' }),
        (e: unknown) => {
          if (!ctl.signal.aborted) setAsync({ compiled, base, names: null, slow: false });
          if (!(e instanceof DOMException)) console.error('filedeck:', e);
        },
      );
    }, REGEX_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      ctl.abort();
    };
  }, [base, compiled, f.regex]);

  if (compiled instanceof Error) {
    if (f.find.length > MAX_FIELD || f.replace.length > MAX_FIELD) return { names: null, error: { kind: 'tooLong' } };
    return { names: null, error: { kind: 'invalid', message: compiled.message } };
  }
  if (sync) return { names: sync, error: null };
  // A worker's answer counts only for the expression (and names) it ran on.
  if (!async || async.compiled !== compiled || async.base !== base) return { names: null, error: null };
  return { names: async.names, error: async.slow ? { kind: 'slow' } : null };
}
