import { lazy, Suspense } from 'react';
import type { WebResource } from '../../api/resources';
import '../../styles/preview.css';

/**
 * Contract between the files screen and the viewers slice. The files screen renders this for a file whose type
 * is not text/textImmutable; the previewer loads the parent folder itself for previous/next.
 */
export interface PreviewerProps {
  resource: WebResource;
  /** Back to the containing folder. */
  onClose(): void;
  /** Actions shown by permission; the files screen opens the matching prompts. */
  onRename(): void;
  onDelete(): void;
  onInfo(): void;
}

// The previewer's code loads with the first preview, keeping it out of the first-load script.
const PreviewerView = lazy(() => import('./previewer-view').then((m) => ({ default: m.PreviewerView })));

export function Previewer(props: PreviewerProps) {
  return (
    <Suspense fallback={<section className="previewer" aria-busy="true" />}>
      <PreviewerView {...props} />
    </Suspense>
  );
}
