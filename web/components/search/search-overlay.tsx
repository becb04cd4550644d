import { useSnapshot } from 'valtio';
import { searchState } from '../../state/search.state';
import '../../styles/search.css';
import { SearchDialog } from './search-dialog';

/**
 * Contract: mounted once by the layout; shows itself when searchState.open (see state/search.state.ts). The dialog
 * is in the main bundle (a few KB): loading it on demand left the first ~450 ms after Ctrl+F without an input.
 */
export function SearchOverlay() {
  const { open } = useSnapshot(searchState);
  return open ? <SearchDialog /> : null;
}
