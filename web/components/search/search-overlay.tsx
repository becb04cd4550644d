/** Contract: mounted once by the layout; shows itself when searchState.open (see state/search.state.ts). */
export function SearchOverlay() {
  return null;
}
