import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EditorHandle } from './codemirror-setup';

export interface CodeEditorProps {
  doc: string;
  filename: string;
  readOnly: boolean;
  label: string;
  onChange(): void;
  onSave(): void;
  /** Receives the editor once it exists (to read the text when saving), and null when it is gone. */
  onReady(handle: EditorHandle | null): void;
}

/** Mounts CodeMirror, fetched with a dynamic import() the first time an editor opens. */
export function CodeEditor({ doc, filename, readOnly, label, onChange, onSave, onReady }: CodeEditorProps) {
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'failed'>('loading');
  // The callbacks change on every render; the editor is built once per document and calls the latest ones.
  const latest = useRef({ onChange, onSave, onReady });
  latest.current = { onChange, onSave, onReady };

  useEffect(() => {
    let handle: EditorHandle | null = null;
    let cancelled = false;
    setStatus('loading');
    import('./codemirror-setup')
      .then(({ createEditor }) => {
        if (cancelled || !host.current) return;
        handle = createEditor(host.current, {
          doc,
          filename,
          readOnly,
          label,
          onChange: () => latest.current.onChange(),
          onSave: () => latest.current.onSave(),
        });
        latest.current.onReady(handle);
        setStatus('ready');
        if (!readOnly) handle.focus();
      })
      .catch((e: unknown) => {
        console.error('filedeck: the editor could not be loaded', e);
        if (!cancelled) setStatus('failed');
      });
    return () => {
      cancelled = true;
      handle?.destroy();
      latest.current.onReady(null);
    };
  }, [doc, filename, readOnly, label]);

  return (
    <div className="editor__body">
      <div ref={host} className="editor__host" data-testid="editor-host" data-status={status} />
      {status !== 'ready' && (
        <p className="editor__status" role="status">
          {t(status === 'failed' ? 'editor.loadFailed' : 'editor.loading')}
        </p>
      )}
    </div>
  );
}
