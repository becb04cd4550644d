import type { RootIdentityStore } from '../../db/root-identity.store';
import type { SharesStore } from '../../db/shares.store';
import { rootVerdict } from '../setup/root-identity';
import { failed, ok, warn, type DoctorCheck } from './doctor-check';

const NAME = 'files root identity';

/**
 * Whether `filedeck serve` would serve this root: the same verdict as at start (services/setup/root-identity.ts),
 * read only. A refusal FAILs with the reason and the way forward.
 */
export async function rootIdentityCheck(root: string, identities: RootIdentityStore, shares: SharesStore): Promise<DoctorCheck> {
  let recorded;
  try {
    recorded = await identities.get();
  } catch {
    return warn(NAME, 'this database does not record its files root yet (an older schema)', 'start the server once to migrate');
  }
  const v = rootVerdict(root, recorded, !recorded && (await shares.any()));
  if (!v.ok) return failed(NAME, `${v.message}: the server refuses to start on it`, v.fix);
  if (v.first) return ok(NAME, `not recorded yet: the server records ${root} (device, inode, marker) when it next starts`);
  if (v.changed) return ok(NAME, `${root} holds the marker of the root this database served; at the next start: ${v.changed}`);
  return ok(NAME, `${root} is the root this database served (device ${recorded!.device}, marker ${recorded!.marker.slice(0, 6)}…)`);
}
