import { lazy, Suspense } from 'react';
import { Skeleton } from '../ui/skeleton';
import type { PreviewerProps } from './previewer-props';
import '../../styles/preview.css';

export type { PreviewerProps };

// The previewer's code loads with the first preview, keeping it out of the first-load script.
const PreviewerView = lazy(() => import('./previewer-view').then((m) => ({ default: m.PreviewerView })));

export function Previewer(props: PreviewerProps) {
  return (
    <Suspense
      fallback={
        <section className="previewer" aria-busy="true">
          <Skeleton kind="preview" />
        </section>
      }
    >
      <PreviewerView {...props} />
    </Suspense>
  );
}
