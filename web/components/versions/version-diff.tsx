import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { diffLines, sideBySide, toHunks, type DiffOp, type Hunk } from '../../state/line-diff';

/** Side by side from this width; narrower (phones), one column with − and + lines. */
const WIDE_QUERY = '(min-width: 760px)';

function useWide(): boolean {
  const [wide, setWide] = useState(() => window.matchMedia(WIDE_QUERY).matches);
  useEffect(() => {
    const q = window.matchMedia(WIDE_QUERY);
    const on = () => setWide(q.matches);
    q.addEventListener('change', on);
    return () => q.removeEventListener('change', on);
  }, []);
  return wide;
}

const MARK = { same: ' ', del: '−', add: '+' } as const;

function Cell({ op, side }: { op?: DiffOp; side: 'a' | 'b' }) {
  if (!op) return <><td className="vdiff__num" /><td className="vdiff__text vdiff__text--empty" /></>;
  const kind = op.kind === 'same' ? 'same' : side === 'a' ? 'del' : 'add';
  return (
    <>
      <td className="vdiff__num">{op[side]}</td>
      <td className={`vdiff__text vdiff__text--${kind}`}><span className="vdiff__mark" aria-hidden="true">{MARK[kind]}</span>{op.text}</td>
    </>
  );
}

function Skipped({ count, span }: { count: number; span: number }) {
  const { t } = useTranslation();
  return (
    <tr className="vdiff__skip">
      <td colSpan={span}>{t('versions.unchangedLines', { lines: count })}</td>
    </tr>
  );
}

function HunkRows({ hunk, wide }: { hunk: Hunk; wide: boolean }) {
  if (wide)
    return (
      <>
        {hunk.skipped > 0 && <Skipped count={hunk.skipped} span={4} />}
        {sideBySide(hunk.ops).map((row, k) => (
          <tr key={k}><Cell op={row.left} side="a" /><Cell op={row.right} side="b" /></tr>
        ))}
      </>
    );
  return (
    <>
      {hunk.skipped > 0 && <Skipped count={hunk.skipped} span={3} />}
      {hunk.ops.map((op, k) => (
        <tr key={k}>
          <td className="vdiff__num">{op.a}</td>
          <td className="vdiff__num">{op.b}</td>
          <td className={`vdiff__text vdiff__text--${op.kind}`}><span className="vdiff__mark" aria-hidden="true">{MARK[op.kind]}</span>{op.text}</td>
        </tr>
      ))}
    </>
  );
}

/** What changed from a version (left, −) to the current content (right, +): changed lines with three lines around. */
export function VersionDiff({ oldText, newText }: { oldText: string; newText: string }) {
  const { t } = useTranslation();
  const wide = useWide();
  const hunks = useMemo(() => {
    const ops = diffLines(oldText, newText);
    return ops && toHunks(ops);
  }, [oldText, newText]);
  if (!hunks) return <p className="versions__note" data-testid="version-diff-too-different">{t('versions.tooDifferent')}</p>;
  if (!hunks.length) return <p className="versions__note" data-testid="version-diff-same">{t('versions.identical')}</p>;
  return (
    <div className="vdiff" data-testid="version-diff" data-layout={wide ? 'split' : 'unified'} tabIndex={0} role="region" aria-label={t('versions.diffLabel')}>
      <table className={wide ? 'vdiff__table vdiff__table--split' : 'vdiff__table'}>
        {/* A fixed layout takes its widths from the columns: narrow line numbers, the two texts sharing the rest. */}
        {wide && (
          <colgroup>
            <col className="vdiff__col-num" />
            <col />
            <col className="vdiff__col-num" />
            <col />
          </colgroup>
        )}
        <thead className="sr-only">
          <tr>
            {wide ? (
              <>
                <th scope="col" colSpan={2}>{t('versions.thisVersion')}</th>
                <th scope="col" colSpan={2}>{t('versions.current')}</th>
              </>
            ) : (
              <>
                <th scope="col">{t('versions.thisVersion')}</th>
                <th scope="col">{t('versions.current')}</th>
                <th scope="col">{t('versions.lines')}</th>
              </>
            )}
          </tr>
        </thead>
        <tbody>
          {hunks.map((h, k) => <HunkRows key={k} hunk={h} wide={wide} />)}
        </tbody>
      </table>
    </div>
  );
}
