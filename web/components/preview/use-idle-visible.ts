import { useCallback, useEffect, useRef, useState } from 'react';

/** Spec §4/§9: the navigation buttons hide 1500 ms after the last movement; movement is handled every 500 ms at most. */
export const NAV_HIDE_MS = 1500;
export const NAV_THROTTLE_MS = 500;

/**
 * Visible after pointer or touch movement, hidden again after a quiet spell. `hold(true)` keeps it visible
 * (the pointer is over the buttons themselves).
 */
export function useIdleVisible() {
  const [visible, setVisible] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const last = useRef(0);
  const held = useRef(false);

  const schedule = useCallback(() => {
    clearTimeout(timer.current);
    if (!held.current) timer.current = setTimeout(() => setVisible(false), NAV_HIDE_MS);
  }, []);

  const poke = useCallback(() => {
    const now = Date.now();
    if (now - last.current < NAV_THROTTLE_MS) return;
    last.current = now;
    setVisible(true);
    schedule();
  }, [schedule]);

  const hold = useCallback(
    (on: boolean) => {
      held.current = on;
      if (on) {
        clearTimeout(timer.current);
        setVisible(true);
      } else schedule();
    },
    [schedule],
  );

  useEffect(() => () => clearTimeout(timer.current), []);
  return { visible, poke, hold };
}
