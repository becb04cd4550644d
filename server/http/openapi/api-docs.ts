import { authApi } from '../routes/auth.api';
import { jobsApi } from '../routes/jobs.api';
import { miscApi } from '../routes/misc.api';
import { resourcesApi } from '../routes/resources.api';
import { settingsApi } from '../routes/settings.api';
import { sharesApi } from '../routes/shares.api';
import { shareLinksApi } from '../routes/share-links.api';
import { transfersApi } from '../routes/transfers.api';
import { trashAuditApi } from '../routes/trash-audit.api';
import { versionsApi } from '../routes/versions.api';
import { usersApi } from '../routes/users.api';
import { ssoApi } from '../routes/sso.api';
import { factorsApi } from '../routes/factors.api';
import { accountApi } from '../routes/account.api';
import { userAccessApi } from '../routes/user-access.api';
import type { RouteDocs } from './route-doc';

/** Every route description (each kept next to its route file). A key given twice is a mistake: the later would hide the former. */
export function allRouteDocs(): RouteDocs {
  const out: RouteDocs = {};
  for (const part of [miscApi, authApi, usersApi, settingsApi, resourcesApi, transfersApi, sharesApi, shareLinksApi, trashAuditApi, versionsApi, jobsApi, ssoApi, factorsApi, accountApi, userAccessApi]) {
    for (const [key, doc] of Object.entries(part)) {
      if (key in out) throw new Error(`route ${key} is described twice`);
      out[key] = doc;
    }
  }
  return out;
}
