import type { Browser, BrowserContext } from 'playwright-core';

/**
 * A fresh browser context for one measured page load, signed in with `token` (the auth cookie and the app's stored
 * token), 1280×800. With `longTasks`, the page records its longest main-thread task (over 50 ms) from its start in
 * `window.longest`: how long it froze.
 */
export async function signedInContext(browser: Browser, base: string, token: string, opts: { longTasks?: boolean } = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addCookies([{ name: 'auth', value: token, url: base, sameSite: 'Strict' }]);
  await context.addInitScript(`localStorage.setItem('jwt', ${JSON.stringify(token)});`);
  if (opts.longTasks)
    await context.addInitScript(() => {
      const w = window as unknown as { longest: number };
      w.longest = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.longest = Math.max(w.longest, e.duration);
      }).observe({ type: 'longtask', buffered: true });
    });
  return context;
}
