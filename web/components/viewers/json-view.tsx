import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../ui/format';

/** Children drawn per object or array; the rest are counted ("… 12,345 more"). */
const MAX_CHILDREN = 1000;
/** Levels open at first. */
const OPEN_DEPTH = 2;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function Scalar({ value }: { value: Json }) {
  if (value === null) return <span className="json__null">null</span>;
  if (typeof value === 'string') return <span className="json__string" dir="auto">{JSON.stringify(value)}</span>;
  if (typeof value === 'number') return <span className="json__number">{String(value)}</span>;
  return <span className="json__bool">{String(value)}</span>;
}

/** One member: a scalar on its line, or an object/array that opens and closes (children drawn only when open). */
function Node({ name, value, depth, last }: { name?: string; value: Json; depth: number; last: boolean }) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(depth < OPEN_DEPTH);
  const label = name !== undefined && <span className="json__key" dir="auto">{JSON.stringify(name)}: </span>;
  const comma = last ? '' : ',';
  if (value === null || typeof value !== 'object') {
    return (
      <div className="json__line">
        {label}
        <Scalar value={value} />
        {comma}
      </div>
    );
  }
  const isArray = Array.isArray(value);
  const entries: [string | undefined, Json][] = isArray ? value.map((v) => [undefined, v]) : Object.entries(value);
  const [o, c] = isArray ? ['[', ']'] : ['{', '}'];
  if (!entries.length) {
    return (
      <div className="json__line">
        {label}
        {o + c + comma}
      </div>
    );
  }
  const more = entries.length - MAX_CHILDREN;
  return (
    <div className="json__node" data-testid="json-node" data-open={open}>
      <div className="json__line">
        <button type="button" className="json__toggle" aria-expanded={open} data-testid="json-toggle" onClick={() => setOpen(!open)}>
          <span className="json__caret" aria-hidden="true" />
          <span className="sr-only">{t(open ? 'viewers.collapse' : 'viewers.expand')}</span>
        </button>
        {label}
        {o}
        {!open && (
          <span className="json__summary">
            {' '}
            {t(isArray ? 'viewers.items' : 'viewers.keys', { count: entries.length, shown: formatCount(entries.length, i18n.language) })} {c + comma}
          </span>
        )}
      </div>
      {open && (
        <>
          <div className="json__children">
            {entries.slice(0, MAX_CHILDREN).map(([k, v], i) => (
              <Node key={i} name={k} value={v} depth={depth + 1} last={i === entries.length - 1} />
            ))}
            {more > 0 && <div className="json__more">{t('viewers.more', { count: more, shown: formatCount(more, i18n.language) })}</div>}
          </div>
          <div className="json__line">{c + comma}</div>
        </>
      )}
    </div>
  );
}

/** JSON pretty-printed as a tree whose objects and arrays open and close; text that does not parse says why. */
export function JsonView({ source }: { source: string; name: string }) {
  const { t } = useTranslation();
  const parsed = useMemo((): { ok: true; value: Json } | { ok: false; error: string } => {
    try {
      return { ok: true, value: JSON.parse(source) as Json };
    } catch (e) {
      return { ok: false, error: (e as Error).message };
    }
  }, [source]);
  if (!parsed.ok) {
    return (
      <div className="json" data-testid="json">
        <p className="doc-viewer__status" role="status" data-testid="json-error">
          {t('viewers.jsonInvalid', { error: parsed.error })}
        </p>
        <pre className="json__raw">{source}</pre>
      </div>
    );
  }
  return (
    <div className="json" data-testid="json" dir="ltr">
      <Node value={parsed.value} depth={0} last />
    </div>
  );
}
