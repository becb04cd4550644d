import { markPause } from '../../fs/versions-fs';

/**
 * The kill -9 test's hook (tests/api/versions-kill.test.ts): with FILEDECK_TEST_VERSION_PAUSE naming a file, a keep
 * writes its version's location there right after the link and then waits a minute before the overwrite, so the test
 * can kill the process at the worst moment. Unset (always, outside that test): no hook at all.
 */
export function versionTestPause(): ((versionReal: string) => Promise<void>) | undefined {
  const marker = process.env.FILEDECK_TEST_VERSION_PAUSE;
  if (!marker) return undefined;
  return async (versionReal) => {
    await markPause(marker, versionReal);
    await Bun.sleep(60_000);
  };
}
