import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { dismissUndo, undoLast, undoState } from '../../state/undo.state';
import { Icon } from '../ui/icon';
import '../../styles/trash.css';

/** "Moved to the trash · Undo": after a delete, move or rename, for ~8 s (Ctrl+Z does the same). */
export function UndoToast() {
  const { t } = useTranslation();
  const { offer } = useSnapshot(undoState);
  if (!offer) return null;
  return (
    <div className="undo-toast" role="status" aria-live="polite" data-testid="undo-toast">
      <Icon name="check" />
      <span className="undo-toast__text">{t(offer.messageKey, { count: offer.count })}</span>
      <button type="button" className="undo-toast__undo" onClick={() => void undoLast()} data-testid="undo-button" title={t('trash.undo.shortcut')}>
        {t('trash.undo.undo')}
      </button>
      <button type="button" className="undo-toast__close" onClick={dismissUndo} aria-label={t('buttons.close')} data-testid="undo-close">
        <Icon name="close" />
      </button>
    </div>
  );
}
