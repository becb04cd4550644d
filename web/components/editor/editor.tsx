import { lazy, Suspense } from 'react';
import type { WebResource } from '../../api/resources';
import '../../styles/preview.css';
import '../../styles/editor.css';

/** Contract: the files screen renders this for text and textImmutable files (read-only for the latter). */
export interface EditorProps {
  resource: WebResource;
  onClose(): void;
}

// The editor's frame loads with the first text file (CodeMirror itself later still, see code-editor.tsx).
const EditorView = lazy(() => import('./editor-view').then((m) => ({ default: m.EditorView })));

export function Editor(props: EditorProps) {
  return (
    <Suspense fallback={<section className="editor" aria-busy="true" />}>
      <EditorView {...props} />
    </Suspense>
  );
}
