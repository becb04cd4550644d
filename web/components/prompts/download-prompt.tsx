import { useTranslation } from 'react-i18next';
import { ARCHIVE_FORMATS } from '../../../server/contract/archive';
import { closePrompt, type PromptData } from '../../state/prompts.state';
import { CancelButton, PromptFrame } from './prompt-frame';

/** Picks the archive format of a download, from the formats the server accepts (server/contract/archive.ts). */
export function DownloadPrompt({ onChoose }: PromptData['download']) {
  const { t } = useTranslation();
  return (
    <PromptFrame title={t('prompts.downloadTitle')} testId="download" actions={<CancelButton />}>
      <p>{t('prompts.downloadMessage')}</p>
      <div className="prompt__choices">
        {ARCHIVE_FORMATS.map((format, i) => (
          <button
            key={format}
            type="button"
            className="choice"
            data-testid={`format-${format}`}
            data-autofocus={i === 0 ? '' : undefined}
            onClick={() => {
              closePrompt();
              onChoose(format);
            }}
          >
            {format}
          </button>
        ))}
      </div>
    </PromptFrame>
  );
}
