import { useTranslation } from 'react-i18next';
import { closePrompt, type PromptData } from '../../state/prompts.state';
import { CancelButton, PromptButton, PromptFrame } from './prompt-frame';

function Names({ names }: { names: string[] }) {
  const { t } = useTranslation();
  return (
    <ul className="prompt__names" aria-label={t('prompts.conflicting')}>
      {names.slice(0, 8).map((n) => (
        <li key={n}>{n}</li>
      ))}
      {names.length > 8 && <li>…</li>}
    </ul>
  );
}

/** Upload conflicts: replace the existing items (Enter), or keep both by renaming the new ones. */
export function ReplacePrompt({ names, onReplace, onRename }: PromptData['replace']) {
  const { t } = useTranslation();
  const replace = () => (closePrompt(), onReplace());
  return (
    <PromptFrame
      title={t('prompts.replaceTitle')}
      testId="replace"
      onSubmit={replace}
      enterSubmits
      actions={
        <>
          <CancelButton />
          <PromptButton label={t('buttons.keepBoth')} onClick={() => (closePrompt(), onRename())} testId="prompt-rename" />
          <PromptButton kind="primary" submit label={t('buttons.replace')} testId="prompt-confirm" />
        </>
      }
    >
      <p>{t('prompts.replaceMessage')}</p>
      <Names names={names} />
    </PromptFrame>
  );
}

/**
 * Copy / move conflicts: overwrite at the destination, or let the server give the new ones free names; a background
 * job (asked once for all its items) may also skip the clashing ones.
 */
export function ReplaceRenamePrompt({ names, onOverwrite, onRename, onSkip }: PromptData['replaceRename']) {
  const { t } = useTranslation();
  return (
    <PromptFrame
      title={t('prompts.replaceRenameTitle')}
      testId="replaceRename"
      onSubmit={() => (closePrompt(), onOverwrite())}
      actions={
        <>
          <CancelButton />
          {onSkip && <PromptButton label={t('buttons.skip')} onClick={() => (closePrompt(), onSkip())} testId="prompt-skip" />}
          <PromptButton label={t('buttons.renameNew')} onClick={() => (closePrompt(), onRename())} testId="prompt-rename" />
          <PromptButton kind="danger" submit label={t('buttons.overwrite')} testId="prompt-confirm" />
        </>
      }
    >
      <p>{onSkip ? t('prompts.replaceRenameJobMessage') : t('prompts.replaceRenameMessage')}</p>
      <Names names={names} />
    </PromptFrame>
  );
}
