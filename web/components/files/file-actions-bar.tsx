import { useCallback, useEffect, useRef, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { WebResource } from '../../api/resources';
import { FILE_ACTIONS, type ActionContext, type ActionIcon } from '../../actions/file-actions';
import type { Snapshot } from 'valtio';
import type { TokenUser } from '../../../server/contract/user';
import { IconButton } from '../ui/icon-button';
import { usePublishedSize } from '../layout/use-published-size';
import { ContextMenu, type ContextMenuState } from './context-menu';
import { useRowFit } from './use-row-fit';

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

/**
 * Narrow screens: the selection's actions in a one-row bar at the bottom, with the selected count. The actions that
 * do not fit (measured, useRowFit) go, in FILE_ACTIONS order, into a More menu: the listing's context menu with
 * only those actions, so each runs through the same `run` as its button would. The bar's height goes to
 * --selection-bar-size: the panel dock sits above it and the listing leaves room for it (panel-dock.css).
 */
export function SelectionBar({ user, folder, selected, onClear }: Omit<ActionsProps, 'multiple'> & { onClear(): void }) {
  const { t } = useTranslation();
  const publish = usePublishedSize('--selection-bar-size');
  const ctx: ActionContext = { user, folder, selected };
  const actions = selected.length ? FILE_ACTIONS.filter((a) => a.selection && a.available(ctx)) : [];
  const count = t('files.selectedCount', { count: selected.length });
  const { ref: measure, fit } = useRowFit(actions.length, count);
  const bar = useCallback(
    (el: HTMLElement | null) => {
      publish(el);
      measure(el);
    },
    [publish, measure],
  );
  const [menu, setMenu] = useState<ContextMenuState | null>(null);
  const open = useRef(false);
  open.current = menu !== null;
  const more = useRef<HTMLElement | null>(null);
  // Esc, Tab or an action chosen: the focus goes back to More. Focused before a prompt the action opened mounts,
  // so the prompt returns it there too (or, when the action emptied the selection and the bar is gone, to the listing).
  const closeMenu = useCallback((refocus: boolean) => {
    setMenu(null);
    if (refocus) more.current?.focus();
  }, []);
  // The menu acts on the selection it was opened for: another selection (or a reload) closes it. `selected` is
  // memoised on the selection and the items, so its identity is the test (joining 100,000 paths on every render of
  // a select-all cost the ≤ 100 ms budget).
  useEffect(() => {
    if (open.current) closeMenu(!!document.activeElement?.closest('[role=menu]'));
  }, [selected, closeMenu]);

  if (!selected.length) return null;
  const shown = actions.slice(0, fit);
  const hidden = actions.slice(fit);
  const toggle = (e: MouseEvent<HTMLButtonElement>) => {
    more.current = e.currentTarget;
    setMenu(menu ? null : { x: 0, y: 0, ctx, actions: hidden, label: t('files.moreActions'), opener: e.currentTarget });
  };
  // The menu is outside the bar: a toolbar holds no menu, and the bar's children are what its row measures.
  return (
    <>
      <div className="selection-bar" ref={bar} role="toolbar" aria-label={t('files.selectionActions')} data-testid="selection-bar">
        <IconButton icon="close" label={t('files.clearSelection')} onClick={onClear} testId="selection-clear" />
        <span className="selection-bar__count" data-testid="selection-count">
          {count}
        </span>
        <div className="selection-bar__actions" data-fit-actions="">
          {shown.map((a) => (
            <IconButton key={a.id} icon={a.icon} label={t(`buttons.${a.label}`)} testId={`bar-${a.id}`} onClick={() => a.run(ctx)} />
          ))}
          {hidden.length > 0 && <IconButton icon="more" label={t('files.moreActions')} testId="selection-more" menuOpen={!!menu} onClick={toggle} />}
        </div>
      </div>
      {menu && <ContextMenu state={menu} onClose={closeMenu} />}
    </>
  );
}
