import { highlightParts, type QueryTerms } from '../../state/search-rank';

/** `text` with the parts matching the query in `<mark>`; React escapes every part, so names render as text only. */
export function Highlighted({ text, terms }: { text: string; terms: QueryTerms }) {
  return (
    <>
      {highlightParts(text, terms).map((p, i) => (p.mark ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}
    </>
  );
}
