import { useTranslation } from 'react-i18next';
import type { WebResource } from '../../api/resources';
import { FILE_ACTIONS, type ActionContext, type ActionIcon } from '../../actions/file-actions';
import type { Snapshot } from 'valtio';
import type { TokenUser } from '../../../server/contract/user';
import { IconButton } from '../ui/icon-button';
import { usePublishedSize } from '../layout/use-published-size';

const VIEW_ICONS: Record<string, ActionIcon> = { list: 'viewList', mosaic: 'viewMosaic', 'mosaic gallery': 'viewGallery' };
const VIEW_LABELS = { list: 'header.list', mosaic: 'header.mosaic', 'mosaic gallery': 'header.mosaicGallery' } as const;

export interface ActionsProps {
  user: Snapshot<TokenUser>;
  folder: WebResource;
  selected: readonly WebResource[];
  multiple: boolean;
}

/**
 * The header's buttons for the listing, by permission (spec §6). Buttons that act on the selection carry
 * `is-selection` so that narrow screens can move them to the selection bar.
 */
export function HeaderActions({ user, folder, selected, multiple }: ActionsProps) {
  const { t } = useTranslation();
  const ctx: ActionContext = { user, folder, selected };
  return (
    <div className="header-actions" role="toolbar" aria-label={t('header.actions')} data-testid="header-actions">
      {FILE_ACTIONS.filter((a) => a.available(ctx)).map((a) => {
        const onSelection = a.selection && (a.id !== 'download' || selected.length > 0);
        // The badge's number is part of the name, outside parentheses (which axe, like speech, treats as an aside).
        const label = a.id === 'view' ? `${t('buttons.switchView')} (${t(VIEW_LABELS[user.viewMode] ?? 'header.list')})` : a.id === 'download' && selected.length ? t('buttons.downloadSelected', { count: selected.length }) : t(`buttons.${a.label}`);
        return (
          <IconButton
            key={a.id}
            icon={a.id === 'view' ? (VIEW_ICONS[user.viewMode] ?? 'viewList') : a.icon}
            label={label}
            testId={`action-${a.id}`}
            className={onSelection ? 'is-selection' : undefined}
            badge={a.id === 'download' ? selected.length : undefined}
            pressed={a.id === 'multiple' ? multiple : undefined}
            onClick={() => a.run(ctx)}
          />
        );
      })}
    </div>
  );
}

/** Narrow screens: the selection's actions in a bar at the bottom, with the selected count. Its height goes to
 *  --selection-bar-size: the panel dock sits above it and the listing leaves room for it (panel-dock.css). */
export function SelectionBar({ user, folder, selected, onClear }: Omit<ActionsProps, 'multiple'> & { onClear(): void }) {
  const { t } = useTranslation();
  const publish = usePublishedSize('--selection-bar-size');
  if (!selected.length) return null;
  const ctx: ActionContext = { user, folder, selected };
  return (
    <div className="selection-bar" ref={publish} role="toolbar" aria-label={t('files.selectionActions')} data-testid="selection-bar">
      <IconButton icon="close" label={t('files.clearSelection')} onClick={onClear} testId="selection-clear" />
      <span className="selection-bar__count" data-testid="selection-count">
        {t('files.selectedCount', { count: selected.length })}
      </span>
      <div className="selection-bar__actions">
        {FILE_ACTIONS.filter((a) => a.selection && a.available(ctx)).map((a) => (
          <IconButton key={a.id} icon={a.icon} label={t(`buttons.${a.label}`)} testId={`bar-${a.id}`} onClick={() => a.run(ctx)} />
        ))}
      </div>
    </div>
  );
}
