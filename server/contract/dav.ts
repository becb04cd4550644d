/** Wire types of the WebDAV endpoint (issue 36), shared by the server and the web app. Keep this file free of imports. */

/** Global WebDAV settings (settings key `webdav`). */
export interface WebdavSettings {
  /** `<baseURL>/dav/` answers (false: 404 for every WebDAV request). */
  enabled: boolean;
  /** HTTP Basic with the account password (users without a second factor); off: API tokens only. */
  allowPasswords: boolean;
  /** macOS `._*` and `.DS_Store` files: 'ignore' (accepted and dropped, never listed) or 'keep' (stored like any file). */
  macMetadata: 'ignore' | 'keep';
}
