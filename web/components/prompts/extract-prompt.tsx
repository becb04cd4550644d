import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { extractableFormat } from '../../../server/contract/job';
import { extractTo } from '../../state/jobs.state';
import { closePrompt, type PromptData } from '../../state/prompts.state';
import { FolderPicker } from './folder-picker';
import { CancelButton, PromptButton, PromptFrame } from './prompt-frame';

const asFolder = (p: string) => (p.endsWith('/') ? p : `${p}/`);

/**
 * "Extract to…": the archive's contents land in a new folder named after it inside the folder picked here (the
 * same chooser as copy and move); a taken name keeps both. The extraction runs as a background job.
 */
export function ExtractPrompt({ item, from }: PromptData['extract']) {
  const { t } = useTranslation();
  const [dest, setDest] = useState(from);
  const onChange = useCallback((d: string) => setDest(d), []);
  const stem = extractableFormat(item.name)?.stem ?? item.name;
  const target = asFolder(dest) + stem;
  const submit = () => {
    closePrompt();
    void extractTo(item.path, target);
  };
  return (
    <PromptFrame
      title={t('prompts.extractTitle')}
      testId="extract"
      onSubmit={submit}
      enterSubmits
      wide
      actions={
        <>
          <CancelButton />
          <PromptButton kind="primary" submit label={t('buttons.extract')} testId="prompt-confirm" />
        </>
      }
    >
      <p>{t('prompts.extractMessage', { name: item.name })}</p>
      <FolderPicker start={from} onChange={onChange} />
      <p className="prompt__hint" data-testid="prompt-destination">
        {t('prompts.destination', { path: target })}
      </p>
    </PromptFrame>
  );
}
