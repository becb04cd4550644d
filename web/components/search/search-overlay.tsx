import { lazy, Suspense } from 'react';
import { useSnapshot } from 'valtio';
import { searchState } from '../../state/search.state';
import '../../styles/search.css';

const SearchDialog = lazy(() => import('./search-dialog').then((m) => ({ default: m.SearchDialog })));

/** Contract: mounted once by the layout; shows itself when searchState.open (see state/search.state.ts). */
export function SearchOverlay() {
  const { open } = useSnapshot(searchState);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <SearchDialog />
    </Suspense>
  );
}
