import { useRef, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { entriesFromInput, uploadInto } from '../../actions/upload';
import { closePrompt, type PromptData } from '../../state/prompts.state';
import { Icon } from '../ui/icon';
import { CancelButton, PromptFrame } from './prompt-frame';

/** The upload chooser: files, or a whole folder (webkitdirectory). */
export function UploadPrompt({ base }: PromptData['upload']) {
  const { t } = useTranslation();
  const filesRef = useRef<HTMLInputElement>(null);
  const folderRef = useRef<HTMLInputElement>(null);
  const picked = (e: ChangeEvent<HTMLInputElement>) => {
    const list = e.currentTarget.files;
    if (!list?.length) return;
    const entries = entriesFromInput(list);
    closePrompt();
    void uploadInto(entries, base);
  };
  return (
    <PromptFrame title={t('prompts.uploadTitle')} testId="upload" actions={<CancelButton />}>
      <p>{t('prompts.uploadMessage')}</p>
      <div className="prompt__choices prompt__choices--large">
        <button type="button" className="choice" onClick={() => filesRef.current?.click()} data-testid="upload-files" data-autofocus="">
          <Icon name="file" />
          {t('buttons.file')}
        </button>
        <button type="button" className="choice" onClick={() => folderRef.current?.click()} data-testid="upload-folder">
          <Icon name="folder" />
          {t('buttons.folder')}
        </button>
      </div>
      <input ref={filesRef} type="file" multiple hidden onChange={picked} data-testid="upload-input-files" aria-label={t('upload.chooseFiles')} />
      <input ref={folderRef} type="file" multiple hidden onChange={picked} data-testid="upload-input-folder" aria-label={t('upload.chooseFolder')} {...{ webkitdirectory: '' }} />
    </PromptFrame>
  );
}
