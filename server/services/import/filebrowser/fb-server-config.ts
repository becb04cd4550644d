import type { FbServer } from './fb-dump';

/**
 * filebrowser's run-time server values (reference `filebrowser-server.md` §11.3): flags > FB_* environment >
 * `.filebrowser.{json,toml,yaml,yml}` > the database's server record. A systemd unit or a container definition
 * usually sets them through the environment or that file, so the import reads both (the caller reads the file:
 * only cmd/ touches the disk) and lays them over the database's values before mapping them (fb-settings-map.ts).
 *
 * | flag / config key                         | FB_ variable                          | server record field |
 * |-------------------------------------------|---------------------------------------|---------------------|
 * | root                                      | FB_ROOT                               | root |
 * | baseURL (old: baseurl)                    | FB_BASE_URL (old: FB_BASEURL)         | baseURL |
 * | address, port, log, socket                | FB_ADDRESS, FB_PORT, FB_LOG, FB_SOCKET| same |
 * | cert, key                                 | FB_CERT, FB_KEY                       | tlsCert, tlsKey |
 * | tokenExpirationTime (token-expiration-time)| FB_TOKEN_EXPIRATION_TIME             | tokenExpirationTime |
 * | disableThumbnails                         | FB_DISABLE_THUMBNAILS                 | enableThumbnails = not it |
 * | disablePreviewResize                      | FB_DISABLE_PREVIEW_RESIZE             | resizePreview = not it |
 * | disableExec (disable-exec)                | FB_DISABLE_EXEC                       | enableExec = not it |
 * | disableTypeDetectionByHeader              | FB_DISABLE_TYPE_DETECTION_BY_HEADER   | typeDetectionByHeader = not it |
 * | followExternalSymlinks                    | FB_FOLLOW_EXTERNAL_SYMLINKS           | followExternalSymlinks |
 */
const KEYS: { field: keyof FbServer; names: string[]; env: string[]; negate?: boolean }[] = [
  { field: 'root', names: ['root'], env: ['FB_ROOT'] },
  { field: 'baseURL', names: ['baseURL', 'baseurl', 'base-url'], env: ['FB_BASE_URL', 'FB_BASEURL'] },
  { field: 'address', names: ['address'], env: ['FB_ADDRESS'] },
  { field: 'port', names: ['port'], env: ['FB_PORT'] },
  { field: 'log', names: ['log'], env: ['FB_LOG'] },
  { field: 'socket', names: ['socket'], env: ['FB_SOCKET'] },
  { field: 'tlsCert', names: ['cert'], env: ['FB_CERT'] },
  { field: 'tlsKey', names: ['key'], env: ['FB_KEY'] },
  { field: 'tokenExpirationTime', names: ['tokenExpirationTime', 'token-expiration-time'], env: ['FB_TOKEN_EXPIRATION_TIME'] },
  { field: 'enableThumbnails', names: ['disableThumbnails', 'disable-thumbnails'], env: ['FB_DISABLE_THUMBNAILS'], negate: true },
  { field: 'resizePreview', names: ['disablePreviewResize', 'disable-preview-resize'], env: ['FB_DISABLE_PREVIEW_RESIZE'], negate: true },
  { field: 'enableExec', names: ['disableExec', 'disable-exec'], env: ['FB_DISABLE_EXEC'], negate: true },
  { field: 'typeDetectionByHeader', names: ['disableTypeDetectionByHeader', 'disable-type-detection-by-header'], env: ['FB_DISABLE_TYPE_DETECTION_BY_HEADER'], negate: true },
  { field: 'followExternalSymlinks', names: ['followExternalSymlinks'], env: ['FB_FOLLOW_EXTERNAL_SYMLINKS'] },
];

/** Go's strconv.ParseBool, which viper uses: 1, t, T, TRUE, true, True (and the false spellings). */
function goBool(v: unknown): boolean | null {
  if (typeof v === 'boolean') return v;
  const s = String(v).trim();
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(s)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(s)) return false;
  return null;
}

function typed(k: (typeof KEYS)[number], raw: unknown): unknown {
  if (!k.negate && k.field !== 'followExternalSymlinks') return raw === null || raw === undefined ? '' : String(raw);
  const b = goBool(raw);
  return b === null ? undefined : k.negate ? !b : b;
}

/**
 * The server values a filebrowser config file (`doc`, parsed) and FB_* variables (`env`) set, as server record
 * fields, with where each came from (for the report). The environment wins over the file, as in filebrowser.
 */
export function fbServerOverrides(doc: Record<string, unknown> | null, env: Record<string, string | undefined>): { values: Partial<FbServer>; from: string[] } {
  const values: Partial<FbServer> = {};
  const from: string[] = [];
  for (const k of KEYS) {
    const name = doc ? k.names.find((n) => n in doc) : undefined;
    if (name) {
      const v = typed(k, doc![name]);
      if (v !== undefined) {
        (values as Record<string, unknown>)[k.field] = v;
        from.push(`${name} (config file)`);
      }
    }
    const e = k.env.find((n) => env[n] !== undefined);
    if (e) {
      const v = typed(k, env[e]);
      if (v !== undefined) {
        (values as Record<string, unknown>)[k.field] = v;
        from.push(e);
      }
    }
  }
  return { values, from };
}
