/** Work done between two yields to the browser: short enough that input and frames are not held up for long. */
export const SLICE_MS = 12;

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
