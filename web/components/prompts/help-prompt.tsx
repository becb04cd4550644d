import { useTranslation } from 'react-i18next';
import { FILE_ACTIONS } from '../../actions/file-actions';
import { comboLabel, SHORTCUTS, type ShortcutGroup, type ShortcutId } from '../../actions/shortcuts';
import { closePrompt } from '../../state/prompts.state';
import { PromptButton, PromptFrame } from './prompt-frame';

const GROUPS: readonly ShortcutGroup[] = ['files', 'listing', 'preview', 'mouse'];
const IDS = Object.keys(SHORTCUTS) as ShortcutId[];

function Row({ combo, what, testId }: { combo: string; what: string; testId: string }) {
  return (
    <div className="help__row" data-testid={testId}>
      <dt>
        {/* Key names read left to right in every language ("Ctrl + F", "↑ ↓ ← →"). */}
        <kbd dir="ltr">{combo}</kbd>
      </dt>
      <dd>{what}</dd>
    </div>
  );
}

/**
 * The keyboard and mouse shortcuts of the files view (F1, '?'), rendered from their one definition: the actions'
 * `shortcut` (labelled with the action's own name) and SHORTCUTS, group by group.
 */
export function HelpPrompt() {
  const { t } = useTranslation();
  const actions = FILE_ACTIONS.filter((a) => a.shortcut);
  return (
    <PromptFrame title={t('prompts.helpTitle')} testId="help" wide onSubmit={closePrompt} actions={<PromptButton kind="primary" submit label={t('buttons.ok')} testId="prompt-confirm" />}>
      <section aria-label={t('shortcuts.groups.actions')}>
        <h3 className="help__group">{t('shortcuts.groups.actions')}</h3>
        <dl className="help">
          {actions.map((a) => (
            <Row key={a.id} combo={comboLabel([a.shortcut!], t)} what={t(`buttons.${a.label}`)} testId={`help-action-${a.id}`} />
          ))}
        </dl>
      </section>
      {GROUPS.map((group) => (
        <section key={group} aria-label={t(`shortcuts.groups.${group}`)}>
          <h3 className="help__group">{t(`shortcuts.groups.${group}`)}</h3>
          <dl className="help">
            {IDS.filter((id) => SHORTCUTS[id].group === group).map((id) => (
              <Row key={id} combo={comboLabel(SHORTCUTS[id].combos, t)} what={t(`prompts.helpKeys.${id}`)} testId={`help-${id}`} />
            ))}
          </dl>
        </section>
      ))}
    </PromptFrame>
  );
}
