import { memo } from 'react';
import '../../styles/states.css';

/**
 * The place of an item that has not arrived yet (a big folder still streaming, web/api/folder-slots.ts): the shape of
 * an item, grey and still, as tall as one, so the rows keep their height when the item replaces it. It carries the
 * item's index (data-index), so a focus waiting for that item (focus-item.ts) knows it is on its way.
 */
export const ListingPlaceholder = memo(function ListingPlaceholder({ index }: { index: number }) {
  return (
    <div className="item is-placeholder" data-testid="item-placeholder" data-index={index} aria-hidden="true">
      <div className="item__visual">
        <span className="skeleton__block skeleton__icon" />
      </div>
      <div className="item__info">
        <p className="item__name">
          <span className="skeleton__block skeleton__line" style={{ inlineSize: `${40 + ((index * 37) % 45)}%` }} />
        </p>
        <p className="item__size">&nbsp;</p>
        <p className="item__modified">&nbsp;</p>
      </div>
    </div>
  );
});
