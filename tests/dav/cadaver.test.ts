import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run, startDavServer, type DavServer, type DavUser } from './dav-fixture';

/**
 * A scripted cadaver session (Debian's cadaver reads its commands from standard input) as a user with a scope; the
 * credentials come from a ~/.netrc in a temp HOME, the password being an API token. Each step must say
 * "succeeded", and the disk must show what the session did.
 */
describe('cadaver', () => {
  let srv: DavServer;
  let carl: DavUser;
  let home = '';

  beforeAll(async () => {
    srv = await startDavServer('cadaver');
    carl = await srv.addUser('carl', 'carl-password-44120', '--scope', '/carl');
    home = join(srv.dir, 'home');
    mkdirSync(home);
    writeFileSync(join(home, '.netrc'), `machine 127.0.0.1\nlogin ${carl.username}\npassword ${carl.token}\n`);
    chmodSync(join(home, '.netrc'), 0o600);
    writeFileSync(join(home, 'note.txt'), 'hello from cadaver\n');
  }, 60_000);
  afterAll(async () => {
    await srv?.stop();
  });

  const session = (lines: string[]) => run(['cadaver', srv.dav], { cwd: home, env: { HOME: home }, stdin: `${lines.join('\n')}\nquit\n`, timeoutMs: 30_000 });

  test('ls, mkcol, put, get, copy, move, propset/propget, lock/discover/unlock, delete', async () => {
    const { out } = await session([
      'mkcol docs',
      'put note.txt docs/note.txt',
      'get docs/note.txt back.txt',
      'copy docs/note.txt docs/copy.txt',
      'move docs/copy.txt docs/moved.txt',
      'propset docs/note.txt colour blue',
      'propget docs/note.txt colour',
      'lock docs/note.txt',
      'discover docs/note.txt',
      'unlock docs/note.txt',
      'ls docs',
      'delete docs/moved.txt',
      'ls',
    ]);
    const step = (what: RegExp) => expect(out, out).toMatch(what);
    step(/Creating `docs': succeeded/);
    step(/Uploading note\.txt to `[^']*docs\/note\.txt': .*succeeded/);
    step(/Downloading `[^']*docs\/note\.txt' to back\.txt: .*succeeded/);
    step(/Copying `[^']*docs\/note\.txt' to `[^']*docs\/copy\.txt':\s+succeeded/);
    step(/Moving `[^']*docs\/copy\.txt' to `[^']*docs\/moved\.txt':\s+succeeded/);
    step(/Setting property on `docs\/note\.txt': succeeded/);
    step(/Value of colour is: blue/);
    step(/Locking `docs\/note\.txt': succeeded/);
    step(/Discovering locks on `docs\/note\.txt':\s*\n?.*opaquelocktoken:|Discovering locks on `docs\/note\.txt':[\s\S]*?Lock token/);
    step(/Unlocking `docs\/note\.txt': succeeded/);
    step(/Deleting `docs\/moved\.txt': succeeded/);
    expect(out).not.toMatch(/failed/);
    expect(readFileSync(join(home, 'back.txt'), 'utf8')).toBe('hello from cadaver\n');
    expect(readFileSync(join(srv.root, 'carl', 'docs', 'note.txt'), 'utf8')).toBe('hello from cadaver\n');
    expect(existsSync(join(srv.root, 'carl', 'docs', 'copy.txt'))).toBe(false);
    expect(existsSync(join(srv.root, 'carl', 'docs', 'moved.txt'))).toBe(false); // DELETE trashes it
    // The listing after the delete shows the folder and no trash or versions folder.
    const listing = out.slice(out.lastIndexOf('Listing collection'));
    expect(listing).toMatch(/Coll:\s+docs/);
    expect(listing).not.toMatch(/\.filedeck-/);
  }, 40_000);

  test('a wrong password: cadaver is refused and nothing is created', async () => {
    writeFileSync(join(home, '.netrc'), `machine 127.0.0.1\nlogin ${carl.username}\npassword not-the-token\n`);
    try {
      const { out } = await session(['mkcol intruder']);
      expect(out).toMatch(/Authentication required for Filedeck/); // the Basic realm of decision 0050
      expect(out).toMatch(/Could not authenticate|Could not access/);
      expect(existsSync(join(srv.root, 'carl', 'intruder'))).toBe(false);
    } finally {
      writeFileSync(join(home, '.netrc'), `machine 127.0.0.1\nlogin ${carl.username}\npassword ${carl.token}\n`);
    }
  }, 40_000);
});
