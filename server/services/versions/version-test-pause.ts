import { markPause } from '../../fs/versions-fs';

/**
 * The kill -9 test's hook (tests/api/versions-kill.test.ts): with FILEDECK_TEST_VERSION_PAUSE naming a file, a keep
 * writes its version's location there right after the link (or, with FILEDECK_TEST_VERSION_PAUSE_AT=overwritten,
 * after the overwrite and before the row is settled) and then waits a minute, so the test can kill it at the worst
 * moment. Unset (always, outside that test): no hook at all.
 */
export function versionTestPause(): ((versionReal: string, phase: 'linked' | 'overwritten') => Promise<void>) | undefined {
  const marker = process.env.FILEDECK_TEST_VERSION_PAUSE;
  const at = process.env.FILEDECK_TEST_VERSION_PAUSE_AT ?? 'linked';
  if (!marker) return undefined;
  return async (versionReal, phase) => {
    if (phase !== at) return;
    await markPause(marker, versionReal);
    await Bun.sleep(60_000);
  };
}
