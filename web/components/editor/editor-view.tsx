import { useCallback, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { useLocation } from 'wouter';
import type { WebResource } from '../../api/resources';
import { auth } from '../../state/auth.state';
import { cancelLeave, confirmLeave, editorState, markEdited, requestLeave, resetEditor, saveEditor } from '../../state/editor.state';
import { ViewerIcon } from '../preview/viewer-icons';
import { CodeEditor } from './code-editor';
import type { EditorHandle } from './codemirror-setup';
import { DiscardDialog } from './discard-dialog';
import { useLeaveGuard } from './use-leave-guard';
import type { EditorProps } from './editor-props';

/** The text editor (spec §2): CodeMirror, Ctrl+S / Save, and a guard against losing unsaved changes. */
export function EditorView({ resource, onClose }: EditorProps) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const { user } = useSnapshot(auth);
  const { dirty, saving, pendingLeave } = useSnapshot(editorState);
  const handle = useRef<EditorHandle | null>(null);
  const content = resource.content;
  // Without the text (no download permission, or too large) saving would overwrite the file with nothing.
  const editable = resource.type !== 'textImmutable' && content !== undefined && !!user?.perm.modify;
  const readOnly = !editable;

  useEffect(() => {
    resetEditor();
    return resetEditor;
  }, [resource.path, content]);
  useLeaveGuard(dirty);

  const save = useCallback(() => {
    if (readOnly || !handle.current) return;
    void saveEditor(resource.path, handle.current.text());
  }, [readOnly, resource.path]);

  // Ctrl+S anywhere while the editor is open saves the file (and keeps the browser's own Save dialog away).
  useEffect(() => {
    if (readOnly) return;
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.key.toLowerCase() !== 's') return;
      e.preventDefault();
      e.stopPropagation();
      save();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [readOnly, save]);

  const close = () => (editorState.dirty ? requestLeave('close') : onClose());
  const discard = () => {
    const target = confirmLeave();
    if (target === 'close') onClose();
    else if (target?.startsWith('history:')) window.history.go(Number(target.slice('history:'.length)));
    else if (target) navigate(target);
  };
  const onReady = useCallback((h: EditorHandle | null) => (handle.current = h), []);

  return (
    <section className="editor" aria-label={resource.name} data-testid="editor" data-readonly={readOnly} data-dirty={dirty}>
      <header className="viewer-bar editor__bar">
        <button type="button" className="viewer-action" aria-label={t('editor.close')} title={t('editor.close')} data-testid="editor-close" onClick={close}>
          <ViewerIcon name="close" />
        </button>
        <h1 className="viewer-bar__title" title={resource.name} data-testid="editor-name">
          {resource.name}
          {dirty && (
            <span className="editor__dirty" title={t('editor.unsaved')} data-testid="editor-dirty">
              <span className="sr-only">{t('editor.unsaved')}</span>
            </span>
          )}
        </h1>
        <div className="viewer-bar__actions">
          {readOnly ? (
            <span className="editor__badge" data-testid="editor-readonly">
              <ViewerIcon name="lock" />
              {t('editor.readOnly')}
            </span>
          ) : (
            <button type="button" className="btn btn--primary editor__save" data-testid="editor-save" disabled={saving} onClick={save}>
              <ViewerIcon name="save" />
              <span>{t(saving ? 'editor.saving' : 'editor.save')}</span>
            </button>
          )}
        </div>
      </header>
      {content === undefined ? (
        <p className="editor__status" data-testid="editor-no-content">
          {t('editor.noContent')}
        </p>
      ) : (
        <CodeEditor doc={content} filename={resource.name} readOnly={readOnly} label={t('editor.label', { name: resource.name })} onChange={markEdited} onSave={save} onReady={onReady} />
      )}
      {pendingLeave && <DiscardDialog name={resource.name} onDiscard={discard} onKeep={cancelLeave} />}
    </section>
  );
}
