import { lazy, Suspense } from 'react';
import type { EditorProps } from './editor-props';
import '../../styles/preview.css';
import '../../styles/editor.css';

export type { EditorProps };

// The editor's frame loads with the first text file (CodeMirror itself later still, see code-editor.tsx).
const EditorView = lazy(() => import('./editor-view').then((m) => ({ default: m.EditorView })));

export function Editor(props: EditorProps) {
  return (
    <Suspense fallback={<section className="editor" aria-busy="true" />}>
      <EditorView {...props} />
    </Suspense>
  );
}
