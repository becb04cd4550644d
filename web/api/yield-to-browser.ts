/** Work done between two yields to the browser: short enough that input and frames are not held up for long. */
const SLICE_MS = 12;

/**
 * Lets the browser paint and handle input. A message, not a timer: timers in background tabs are held back
 * to one a second, which would stretch a big listing's parsing into minutes.
 */
export function yieldToBrowser(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/**
 * A long run of work cut into slices: the function returned, called between pieces of the work, yields to the
 * browser once SLICE_MS have passed since the last yield (`now`: the time, when the caller has just read it).
 */
export function timeSlices(): (now?: number) => Promise<void> | undefined {
  let start = performance.now();
  return (now = performance.now()) => {
    if (now - start < SLICE_MS) return undefined;
    return yieldToBrowser().then(() => {
      start = performance.now();
    });
  };
}
