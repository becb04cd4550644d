/**
 * The issuer of LDAP identities: the server's host name, without scheme or port, so moving from ldap:// to ldaps://
 * (or another port) keeps every link; another host name is another directory (links are made again by an admin).
 */
export function ldapIssuer(url: string): string {
  try {
    return `ldap://${new URL(url).hostname.toLowerCase()}`;
  } catch {
    return url;
  }
}
