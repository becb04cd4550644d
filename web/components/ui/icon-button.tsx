import type { MouseEvent } from 'react';
import { Icon, type IconName } from './icon';

export interface IconButtonProps {
  icon: IconName;
  /** The accessible name, also shown as a tooltip. */
  label: string;
  onClick(e: MouseEvent<HTMLButtonElement>): void;
  testId?: string;
  /** A small count shown on the button (e.g. how many items a download takes). */
  badge?: number;
  pressed?: boolean;
  /** A menu button: whether its menu is open (aria-haspopup=menu with aria-expanded). */
  menuOpen?: boolean;
  className?: string;
  disabled?: boolean;
}

/** A square toolbar button with an icon and an accessible name. */
export function IconButton({ icon, label, onClick, testId, badge, pressed, menuOpen, className, disabled }: IconButtonProps) {
  return (
    <button
      type="button"
      className={`icon-btn${className ? ` ${className}` : ''}`}
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      aria-haspopup={menuOpen === undefined ? undefined : 'menu'}
      aria-expanded={menuOpen}
      data-testid={testId}
      onClick={onClick}
      disabled={disabled}
    >
      <Icon name={icon} />
      {badge !== undefined && badge > 0 && (
        <span className="icon-btn__badge" aria-hidden="true">
          {badge}
        </span>
      )}
    </button>
  );
}
