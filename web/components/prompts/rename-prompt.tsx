import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cleanName, renameItem } from '../../actions/files';
import { splitExtension } from '../../state/batch-rename';
import { closePrompt, type PromptData } from '../../state/prompts.state';
import { CancelButton, PromptButton, PromptFrame } from './prompt-frame';

/** Renames one item; the name is trimmed, and an unchanged name just closes. */
export function RenamePrompt({ item, onDone }: PromptData['rename']) {
  const { t } = useTranslation();
  const [name, setName] = useState(item.name);
  const [busy, setBusy] = useState(false);
  const valid = cleanName(name) !== null;
  const input = useRef<HTMLInputElement>(null);
  // The stem is selected, not the extension: typing replaces "report.final" and keeps ".pdf" (runs after the
  // frame's focus-and-select-all, as a parent's effect follows its children's).
  useEffect(() => {
    input.current?.setSelectionRange(0, splitExtension(item.name, item.isDir)[0].length);
  }, [item]);
  const submit = async () => {
    if (!valid || busy) return;
    setBusy(true);
    const to = await renameItem(item, name);
    setBusy(false);
    if (to === null) return;
    closePrompt();
    if (to !== item.path) onDone?.(to);
  };
  return (
    <PromptFrame
      title={t('prompts.renameTitle')}
      testId="rename"
      onSubmit={() => void submit()}
      actions={
        <>
          <CancelButton />
          <PromptButton kind="primary" submit label={t('buttons.rename')} testId="prompt-confirm" disabled={!valid || busy} />
        </>
      }
    >
      <p>{t('prompts.renameMessage', { name: item.name })}</p>
      <label className="field">
        <span className="field__label">{t('prompts.renameLabel')}</span>
        <input ref={input} className="input" name="name" value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" spellCheck={false} data-testid="prompt-input" />
      </label>
      {!valid && name.trim() !== '' && <p className="prompt__hint is-error">{t('prompts.invalidName')}</p>}
    </PromptFrame>
  );
}
