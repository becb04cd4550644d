import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { applyBatchRename, type BatchOutcome } from '../../actions/batch-rename';
import { canApply, checkNames, listingOrder, MAX_FIELD, patternNames, type Row } from '../../state/batch-rename';
import type { Rename } from '../../state/batch-rename-plan';
import { closePrompt, type PromptData } from '../../state/prompts.state';
import '../../styles/batch-rename.css';
import { BatchRenameTable, type RowResult } from './batch-rename-table';
import { CancelButton, PromptButton, PromptFrame } from './prompt-frame';
import { useReplacedNames, type FindError } from './use-batch-names';

/** A counter field's value: an integer within ±1e9, or the fallback while the field is empty or odd. */
const integer = (raw: string, fallback: number) => {
  const n = Number(raw);
  return raw.trim() !== '' && Number.isInteger(n) && Math.abs(n) <= 1e9 ? n : fallback;
};

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e)).trim();

/** What each row came to after a batch that stopped on an error. */
function resultsOf(rows: readonly Row[], renames: readonly Rename[], out: BatchOutcome): RowResult[] {
  let i = 0;
  return rows.map((r): RowResult => {
    if (r.unchanged) return { kind: 'notRenamed' };
    const k = i++;
    const at = out.at[k]!;
    if (at === renames[k]!.to) return { kind: 'renamed' };
    if (at !== renames[k]!.from) return { kind: 'parked', name: at };
    return out.failed?.item === k ? { kind: 'failed', message: errorText(out.failed.error) } : { kind: 'notRenamed' };
  });
}

function FindErrorText({ error }: { error: FindError }) {
  const { t } = useTranslation();
  const text = error.kind === 'slow' ? t('prompts.batch.regexSlow') : error.kind === 'tooLong' ? t('prompts.batch.tooLong') : t('prompts.batch.regexError', { message: error.message });
  return (
    <p className="prompt__hint is-error" role="alert" data-testid="batch-find-error">
      {text}
    </p>
  );
}

/**
 * Renames several items of one folder at once (issue 16 item 5): a pattern with tokens and a counter in the
 * listing's order, then a find/replace, previewed row by row; Apply stays disabled while any new name is
 * unusable. The renames run one at a time through the single rename's API call.
 */
export function BatchRenamePrompt({ items, folder, existing }: PromptData['batchRename']) {
  const { t } = useTranslation();
  const ordered = useMemo(() => listingOrder(items), [items]);
  const [pattern, setPattern] = useState('{name}{ext}');
  const [start, setStart] = useState('1');
  const [step, setStep] = useState('1');
  const [find, setFind] = useState('');
  const [replace, setReplace] = useState('');
  const [caseSensitive, setCaseSensitive] = useState(false);
  const [regex, setRegex] = useState(false);
  const [busy, setBusy] = useState<{ done: number; total: number } | null>(null);
  const [stopped, setStopped] = useState<{ rows: Row[]; results: RowResult[]; text: string } | null>(null);
  const base = useMemo(() => patternNames(ordered, { pattern, start: integer(start, 1), step: integer(step, 1) }), [ordered, pattern, start, step]);
  const { names, error } = useReplacedNames(base, { find, replace, caseSensitive, regex });
  const rows = useMemo(() => (names ? checkNames(ordered, names, existing) : null), [ordered, names, existing]);
  const ready = !!rows && canApply(rows) && !busy && !stopped;
  const changed = rows?.filter((r) => !r.unchanged).length ?? 0;
  const conflicts = rows?.filter((r) => !r.unchanged && r.problem).length ?? 0;

  const submit = async () => {
    if (!ready || !rows) return;
    const renames = rows.filter((r) => !r.unchanged).map((r) => ({ from: r.item.name, to: r.to }));
    setBusy({ done: 0, total: renames.length });
    const out = await applyBatchRename(folder, renames, new Set(existing), (done) => setBusy({ done, total: renames.length }));
    setBusy(null);
    if (!out.failed) return closePrompt();
    const results = resultsOf(rows, renames, out);
    const said = { done: out.renamed, total: renames.length, name: renames[out.failed.item]!.from, message: errorText(out.failed.error) };
    // An item whose way back from its temporary name was refused is not "left as it was": the message names it.
    // There is at most one (planSteps finishes a cycle before it parks an item of the next).
    const k = results.findIndex((r) => r.kind === 'parked');
    const left = results[k];
    const text = left?.kind === 'parked' ? t('prompts.batch.stoppedParked', { ...said, parked: rows[k]!.item.name, temp: left.name }) : t('prompts.batch.stopped', said);
    setStopped({ rows, results, text });
  };

  return (
    <PromptFrame
      title={t('prompts.batch.title', { count: items.length })}
      testId="batchRename"
      wide
      onSubmit={() => void submit()}
      actions={
        stopped ? (
          <PromptButton kind="primary" label={t('buttons.close')} onClick={closePrompt} testId="prompt-close" />
        ) : (
          <>
            <CancelButton />
            <PromptButton kind="primary" submit label={t('prompts.batch.apply')} testId="prompt-confirm" disabled={!ready} />
          </>
        )
      }
    >
      <fieldset className="batch__fields" disabled={!!busy || !!stopped}>
        <label className="field">
          <span className="field__label">{t('prompts.batch.pattern')}</span>
          <input className="input" name="pattern" value={pattern} maxLength={MAX_FIELD} onChange={(e) => setPattern(e.target.value)} autoComplete="off" spellCheck={false} aria-describedby="batch-pattern-hint" data-testid="batch-pattern" />
        </label>
        <p className="prompt__hint" id="batch-pattern-hint">
          {t('prompts.batch.patternHint')}
        </p>
        <div className="batch__row">
          <label className="field">
            <span className="field__label">{t('prompts.batch.start')}</span>
            <input className="input" type="number" name="start" value={start} onChange={(e) => setStart(e.target.value)} data-testid="batch-start" />
          </label>
          <label className="field">
            <span className="field__label">{t('prompts.batch.step')}</span>
            <input className="input" type="number" name="step" value={step} onChange={(e) => setStep(e.target.value)} data-testid="batch-step" />
          </label>
        </div>
        <div className="batch__row">
          <label className="field">
            <span className="field__label">{t('prompts.batch.find')}</span>
            <input className="input" name="find" value={find} maxLength={MAX_FIELD} onChange={(e) => setFind(e.target.value)} autoComplete="off" spellCheck={false} data-testid="batch-find" />
          </label>
          <label className="field">
            <span className="field__label">{t('prompts.batch.replace')}</span>
            <input className="input" name="replace" value={replace} maxLength={MAX_FIELD} onChange={(e) => setReplace(e.target.value)} autoComplete="off" spellCheck={false} data-testid="batch-replace" />
          </label>
        </div>
        <div className="batch__row batch__checks">
          <label className="batch__check">
            <input type="checkbox" checked={caseSensitive} onChange={(e) => setCaseSensitive(e.target.checked)} data-testid="batch-case" />
            {t('prompts.batch.matchCase')}
          </label>
          <label className="batch__check">
            <input type="checkbox" checked={regex} onChange={(e) => setRegex(e.target.checked)} data-testid="batch-regex" />
            {t('prompts.batch.regex')}
          </label>
        </div>
      </fieldset>
      {error && <FindErrorText error={error} />}
      <p className="prompt__hint" role="status" data-testid="batch-summary">
        {busy
          ? t('prompts.batch.progress', { done: busy.done, total: busy.total })
          : rows
            ? `${t('prompts.batch.summary', { changed, total: rows.length })}${conflicts ? ` ${t('prompts.batch.conflicts', { count: conflicts })}` : ''}`
            : error
              ? ''
              : t('prompts.batch.checking')}
      </p>
      {stopped && (
        <p className="prompt__hint is-error" role="alert" data-testid="batch-stopped">
          {stopped.text}
        </p>
      )}
      {(stopped?.rows ?? rows) && <BatchRenameTable rows={stopped?.rows ?? rows!} results={stopped?.results} />}
    </PromptFrame>
  );
}
