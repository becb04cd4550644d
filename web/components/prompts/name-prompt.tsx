import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cleanName, createFile, createFolder } from '../../actions/files';
import { closePrompt } from '../../state/prompts.state';
import { CancelButton, PromptButton, PromptFrame } from './prompt-frame';

/** New file (an empty POST) or new folder (a POST of the path with a trailing slash) in `base`. */
export function NamePrompt({ kind, base }: { kind: 'newFile' | 'newDir'; base: string }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const valid = cleanName(name) !== null;
  const submit = async () => {
    if (!valid || busy) return;
    setBusy(true);
    const ok = await (kind === 'newDir' ? createFolder(base, name) : createFile(base, name));
    setBusy(false);
    if (ok) closePrompt();
  };
  const dir = kind === 'newDir';
  return (
    <PromptFrame
      title={dir ? t('prompts.newDirTitle') : t('prompts.newFileTitle')}
      testId={kind}
      onSubmit={() => void submit()}
      actions={
        <>
          <CancelButton />
          <PromptButton kind="primary" submit label={t('buttons.create')} testId="prompt-confirm" disabled={!valid || busy} />
        </>
      }
    >
      <p>{dir ? t('prompts.newDirMessage') : t('prompts.newFileMessage')}</p>
      <label className="field">
        <span className="field__label">{t('prompts.nameLabel')}</span>
        <input className="input" name="name" value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" spellCheck={false} data-testid="prompt-input" />
      </label>
      {!valid && name.trim() !== '' && <p className="prompt__hint is-error">{t('prompts.invalidName')}</p>}
    </PromptFrame>
  );
}
