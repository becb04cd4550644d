import { useTranslation } from 'react-i18next';
import { closePrompt } from '../../state/prompts.state';
import { PromptButton, PromptFrame } from './prompt-frame';

const KEYS = ['f1', 'f2', 'del', 'esc', 'enter', 'ctrlF', 'ctrlS', 'ctrlC', 'ctrlX', 'ctrlV', 'ctrlA', 'click', 'ctrlClick', 'shiftClick', 'doubleClick'] as const;

/** The keyboard and mouse shortcuts of the files view (F1). */
export function HelpPrompt() {
  const { t } = useTranslation();
  return (
    <PromptFrame title={t('prompts.helpTitle')} testId="help" wide onSubmit={closePrompt} actions={<PromptButton kind="primary" submit label={t('buttons.ok')} testId="prompt-confirm" />}>
      <dl className="help">
        {KEYS.map((id) => (
          <div className="help__row" key={id}>
            <dt>
              <kbd>{t(`prompts.helpCombos.${id}`)}</kbd>
            </dt>
            <dd>{t(`prompts.helpKeys.${id}`)}</dd>
          </div>
        ))}
      </dl>
    </PromptFrame>
  );
}
