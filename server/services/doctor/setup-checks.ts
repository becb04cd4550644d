import { existsSync } from 'node:fs';
import type { Config } from '../../core/config';
import { parseCidr } from '../../core/net';
import { programsMayRun } from '../preview/preview-gate';
import { detectToolSandbox, findTools, toolSandboxWarning } from '../preview/tool-thumbs';
import { detectExecMode } from '../runner/sandbox';
import { failed, ok, warn, type DoctorCheck } from './doctor-check';

const LOOPBACK = /^(127\.|::1$|localhost$)/;

/** Commands and hooks: off, sandboxed by bubblewrap, or unconfined by the admin's choice (the runner's own detection). */
export async function sandboxCheck(c: Pick<Config, 'enableExec' | 'bwrapPath' | 'execUnsafeNoSandbox'>): Promise<DoctorCheck> {
  if (!c.enableExec) return ok('sandbox', 'exec is off: commands and hooks never run');
  const { mode, bwrap } = await detectExecMode(c);
  if (mode === 'bubblewrap') return ok('sandbox', `commands and hooks run inside bubblewrap (${bwrap})`);
  if (mode === 'none-unsafe') return warn('sandbox', 'bubblewrap is unusable: commands and hooks run UNCONFINED (execUnsafeNoSandbox)', 'install bubblewrap (apt install bubblewrap) and allow unprivileged user namespaces');
  return warn('sandbox', 'enableExec is on but bubblewrap is unusable: commands and hooks are refused', 'install bubblewrap (apt install bubblewrap), allow unprivileged user namespaces, or set bwrapPath');
}

/** PDF, video and HEIC previews: which programs are installed, and whether they run sandboxed (the preview service's own detection and gate). */
export async function thumbnailCheck(c: Pick<Config, 'enableThumbnails' | 'resizePreview' | 'bwrapPath' | 'execUnsafeNoSandbox'>): Promise<DoctorCheck> {
  if (!programsMayRun(c)) return ok('thumbnail programs', 'thumbnails are off: pdftoppm, ffmpeg and heif-convert never run (no PDF, video or HEIC previews)');
  const { mode, bwrap } = await detectToolSandbox(c);
  const warning = toolSandboxWarning(c, mode);
  if (warning) return warn('thumbnail programs', warning, 'install bubblewrap (apt install bubblewrap) and allow unprivileged user namespaces, or set bwrapPath');
  const tools = findTools();
  const found = [tools.pdf && 'pdftoppm', tools.video && 'ffmpeg', tools.heic && 'heif-convert'].filter(Boolean).join(', ');
  const missing = [!tools.pdf && 'pdftoppm (poppler-utils): no PDF thumbnails', !tools.video && 'ffmpeg: no video thumbnails', !tools.heic && 'heif-convert (libheif-examples): no HEIC thumbnails or previews'].filter(Boolean).join('; ');
  if (!found) return ok('thumbnail programs', 'neither pdftoppm (poppler-utils), ffmpeg nor heif-convert (libheif-examples) is installed: no PDF, video or HEIC thumbnails');
  return ok('thumbnail programs', `${found} run inside bubblewrap (${bwrap})${missing ? `; missing ${missing}` : ''}`);
}

/** Reverse-proxy hints: who is believed for X-Forwarded-For, proxy logins and the metrics allowlist. */
export function proxyChecks(c: Pick<Config, 'address' | 'baseURL' | 'trustedProxies' | 'metricsAllow' | 'metricsToken'>, authMethod: string | null): DoctorCheck[] {
  const out: DoctorCheck[] = [];
  const everyone = (list: string[]) => list.some((p) => parseCidr(p)?.bits === 0);
  if (everyone(c.trustedProxies))
    out.push(failed('trusted proxies', 'trustedProxies includes every address: anyone can forge X-Forwarded-For (and the login header with authMethod proxy)', 'list only your reverse proxies, e.g. trustedProxies: [127.0.0.1]'));
  if (authMethod === 'proxy' && !c.trustedProxies.length)
    out.push(failed('proxy login', 'authMethod is proxy but trustedProxies is empty: every login is refused', 'add the reverse proxy that sets the header to trustedProxies'));
  // A loopback address with a base URL is almost surely behind a proxy on this host: its clients all look local.
  if (LOOPBACK.test(c.address) && !c.trustedProxies.length && c.baseURL)
    out.push(warn('reverse proxy', `listening on ${c.address} under ${c.baseURL} with no trustedProxies: behind a proxy every client looks like ${c.address} (login rate limits, logs, audit)`, 'set trustedProxies: [127.0.0.1] (the proxy\'s address)'));
  else if (LOOPBACK.test(c.address) && !c.trustedProxies.length)
    out.push(ok('reverse proxy', `listening on ${c.address}; if a reverse proxy on this host forwards to Filedeck, set trustedProxies: [127.0.0.1] so client addresses are right`));
  else if (!out.length) out.push(ok('reverse proxy', c.trustedProxies.length ? `X-Forwarded-For believed from ${c.trustedProxies.join(', ')}` : `listening on ${c.address}; X-Forwarded-For is not believed from anyone`));
  out.push(ok('base URL', c.baseURL ? `served under ${c.baseURL}/ (a proxy may forward the prefix or strip it)` : 'served at the root (set baseURL to serve under a sub-path)'));
  if (everyone(c.metricsAllow) && !c.metricsToken) out.push(warn('metrics', 'metricsAllow includes every address and no metricsToken is set: anyone can read /metrics', 'narrow metricsAllow or set metricsToken'));
  return out;
}

/** TLS files named in the configuration exist. */
export function tlsCheck(c: Pick<Config, 'cert' | 'key'>): DoctorCheck | null {
  if (!c.cert) return null;
  const missing = [c.cert, c.key].filter((f) => !existsSync(f));
  if (missing.length) return failed('tls', `missing ${missing.join(', ')}`, 'fix "cert" and "key" in the configuration');
  return ok('tls', `certificate ${c.cert}`);
}
