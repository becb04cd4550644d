import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Attribute, Change, Client } from 'ldapts';

export const LDAP_SUFFIX = 'dc=filedeck,dc=test';
export const LDAP_ADMIN_DN = `cn=admin,${LDAP_SUFFIX}`;
export const LDAP_ADMIN_PASSWORD = 'slapd-admin-secret';

export interface Slapd {
  /** ldap://127.0.0.1:port (StartTLS offered) */
  url: string;
  /** ldaps://127.0.0.1:port */
  ldapsUrl: string;
  /** The self-signed certificate the server presents (use as caFile). */
  caFile: string;
  dir: string;
  /** Adds or removes one member of a group (as the directory's admin). */
  setMember(group: string, uid: string, member: boolean): Promise<void>;
  /** Stops the server (SIGTERM, then waits for it) and removes its folder. */
  stop(): Promise<void>;
}

const freePort = () => new Promise<number>((resolve, reject) => {
  const s = createServer();
  s.once('error', reject);
  s.listen(0, '127.0.0.1', () => {
    const port = (s.address() as { port: number }).port;
    s.close(() => resolve(port));
  });
});

export const personDn = (uid: string) => `uid=${uid},ou=people,${LDAP_SUFFIX}`;
export const groupDn = (cn: string) => `cn=${cn},ou=groups,${LDAP_SUFFIX}`;

/** People: uid → password (and whether the account is locked by ppolicy); groups: cn → member uids. */
function seedLdif(people: Record<string, { password: string; locked?: boolean }>, groups: Record<string, string[]>): string {
  const out = [
    `dn: ${LDAP_SUFFIX}\nobjectClass: dcObject\nobjectClass: organization\ndc: filedeck\no: Filedeck tests\n`,
    `dn: ou=people,${LDAP_SUFFIX}\nobjectClass: organizationalUnit\nou: people\n`,
    `dn: ou=groups,${LDAP_SUFFIX}\nobjectClass: organizationalUnit\nou: groups\n`,
  ];
  for (const [uid, p] of Object.entries(people))
    out.push(`dn: ${personDn(uid)}\nobjectClass: inetOrgPerson\nuid: ${uid}\ncn: ${uid}\nsn: ${uid}\nuserPassword: ${p.password}\n${p.locked ? 'pwdAccountLockedTime: 000001010000Z\n' : ''}`);
  for (const [cn, members] of Object.entries(groups))
    // groupOfNames needs a member: a placeholder stays, so the last real member can be removed.
    out.push(`dn: ${groupDn(cn)}\nobjectClass: groupOfNames\ncn: ${cn}\n${['nobody', ...members].map((m) => `member: ${personDn(m)}`).join('\n')}\n`);
  return out.join('\n');
}

/**
 * Debian's slapd on free 127.0.0.1 ports (ldap:// with StartTLS, and ldaps://) with a temp mdb database, the ppolicy
 * overlay (locked accounts) and a self-signed certificate made by openssl. The caller must stop() it.
 */
export async function startSlapd(people: Record<string, { password: string; locked?: boolean }>, groups: Record<string, string[]>): Promise<Slapd> {
  const dir = mkdtempSync(join(tmpdir(), 'filedeck-slapd-'));
  let proc: ReturnType<typeof Bun.spawn> | null = null;
  try {
    mkdirSync(join(dir, 'data'));
    const cert = join(dir, 'cert.pem');
    const key = join(dir, 'key.pem');
    const ssl = Bun.spawnSync(['openssl', 'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stderr: 'pipe' });
    if (ssl.exitCode !== 0) throw new Error(`openssl: ${ssl.stderr.toString()}`);
    const conf = join(dir, 'slapd.conf');
    writeFileSync(conf, [
      'include /etc/ldap/schema/core.schema',
      'include /etc/ldap/schema/cosine.schema',
      'include /etc/ldap/schema/inetorgperson.schema',
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      'moduleload ppolicy',
      `pidfile ${join(dir, 'slapd.pid')}`,
      `TLSCertificateFile ${cert}`,
      `TLSCertificateKeyFile ${key}`,
      'database mdb',
      `suffix "${LDAP_SUFFIX}"`,
      `rootdn "${LDAP_ADMIN_DN}"`,
      `rootpw ${LDAP_ADMIN_PASSWORD}`,
      `directory ${join(dir, 'data')}`,
      'maxsize 16777216',
      'overlay ppolicy',
      'access to attrs=userPassword by anonymous auth by self write by * none',
      'access to * by * read',
      '',
    ].join('\n'));
    const ldif = join(dir, 'seed.ldif');
    writeFileSync(ldif, seedLdif(people, groups));
    const add = Bun.spawnSync(['/usr/sbin/slapadd', '-f', conf, '-l', ldif], { stderr: 'pipe' });
    if (add.exitCode !== 0) throw new Error(`slapadd: ${add.stderr.toString()}`);
    const [port, tlsPort] = [await freePort(), await freePort()];
    const url = `ldap://127.0.0.1:${port}`;
    const ldapsUrl = `ldaps://127.0.0.1:${tlsPort}`;
    // -d keeps it in the foreground (a child we can stop); its log goes nowhere.
    proc = Bun.spawn(['/usr/sbin/slapd', '-f', conf, '-h', `${url}/ ${ldapsUrl}/`, '-d', '0'], { stdout: 'ignore', stderr: 'ignore' });
    await waitUntilUp(url);
    const running = proc;
    return {
      url, ldapsUrl, caFile: cert, dir,
      async setMember(group, uid, member) {
        const c = new Client({ url, timeout: 5000, connectTimeout: 5000 });
        try {
          await c.bind(LDAP_ADMIN_DN, LDAP_ADMIN_PASSWORD);
          await c.modify(groupDn(group), new Change({ operation: member ? 'add' : 'delete', modification: new Attribute({ type: 'member', values: [personDn(uid)] }) }));
        } finally {
          await c.unbind().catch(() => {});
        }
      },
      async stop() {
        running.kill('SIGTERM');
        await running.exited;
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    proc?.kill('SIGKILL');
    await proc?.exited;
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

async function waitUntilUp(url: string): Promise<void> {
  const until = Date.now() + 10_000;
  for (;;) {
    const c = new Client({ url, timeout: 1000, connectTimeout: 1000 });
    try {
      await c.bind(LDAP_ADMIN_DN, LDAP_ADMIN_PASSWORD);
      await c.unbind();
      return;
    } catch (e) {
      if (Date.now() > until) throw new Error(`slapd did not start: ${(e as Error).message}`);
      await Bun.sleep(50);
    }
  }
}
