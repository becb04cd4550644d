#!/usr/bin/env node
// `npm start` and `npm test` on a machine that has only Node.js and npm: installs Bun from the npm registry
// into .tools/, the dependencies from bun.lock, Chromium from Debian when tests need it, then hands over to Bun.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BUN_VERSION = '1.4.5';
const TOOLS = join(ROOT, '.tools');
const LOCAL_BUN = join(TOOLS, 'node_modules', 'bun', 'bin', 'bun.exe');
const [mode, ...rest] = process.argv.slice(2);

const say = (m) => process.stderr.write(`[filedeck] ${m}\n`);

function bunVersion(bin) {
  try {
    return execFileSync(bin, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

function ensureBun() {
  if (bunVersion(LOCAL_BUN) === BUN_VERSION) return LOCAL_BUN;
  if (bunVersion('bun') === BUN_VERSION) return 'bun';
  say(`installing Bun ${BUN_VERSION} from the npm registry into .tools/`);
  mkdirSync(TOOLS, { recursive: true });
  const r = spawnSync('npm', ['install', '--prefix', TOOLS, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', `bun@${BUN_VERSION}`], { stdio: 'inherit', cwd: ROOT });
  if (r.status !== 0 || bunVersion(LOCAL_BUN) !== BUN_VERSION) {
    say('could not install Bun; check access to the npm registry');
    process.exit(1);
  }
  return LOCAL_BUN;
}

function ensureDeps(bun) {
  const stamp = join(ROOT, 'node_modules', '.filedeck-installed');
  const newest = Math.max(statSync(join(ROOT, 'bun.lock')).mtimeMs, statSync(join(ROOT, 'package.json')).mtimeMs);
  if (existsSync(stamp) && statSync(stamp).mtimeMs >= newest) return;
  say('installing dependencies (bun install --frozen-lockfile)');
  const r = spawnSync(bun, ['install', '--frozen-lockfile'], { stdio: 'inherit', cwd: ROOT });
  if (r.status !== 0) process.exit(r.status ?? 1);
  writeFileSync(stamp, new Date().toISOString());
}

// System tools the suites use: Chromium (browser tests), bubblewrap (the command sandbox), brotli and zstd
// (archive checks), nginx (benchmark anchor, load balancer of the multi-instance test), PostgreSQL (the second engine), podman and runc (the container image test); poppler-utils, ffmpeg and libheif-examples (PDF, video and HEIC previews); slapd and ldap-utils (the LDAP login tests); litmus, rclone and cadaver (the WebDAV suites); bindfs (a FUSE view of the files root for the second instance of the shared-index test).
const SYSTEM_TOOLS = [['/usr/bin/chromium', 'chromium'], ['/usr/bin/bwrap', 'bubblewrap'], ['/usr/bin/brotli', 'brotli'], ['/usr/bin/zstd', 'zstd'], ['/usr/sbin/nginx', 'nginx'], ['/usr/lib/postgresql/15/bin/initdb', 'postgresql'], ['/usr/bin/podman', 'podman'], ['/usr/sbin/runc', 'runc'], ['/usr/bin/pdftoppm', 'poppler-utils'], ['/usr/bin/ffmpeg', 'ffmpeg'], ['/usr/bin/heif-convert', 'libheif-examples'], ['/usr/sbin/slapd', 'slapd'], ['/usr/bin/ldapadd', 'ldap-utils'], ['/usr/bin/litmus', 'litmus'], ['/usr/bin/rclone', 'rclone'], ['/usr/bin/cadaver', 'cadaver'], ['/usr/bin/bindfs', 'bindfs']];

function ensureSystemTools() {
  const missing = SYSTEM_TOOLS.filter(([bin]) => !existsSync(bin)).map(([, pkg]) => pkg);
  if (!missing.length) return;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const sudo = !root && spawnSync('sudo', ['-n', 'true']).status === 0 ? ['sudo', '-n'] : [];
  if (!root && !sudo.length) {
    say(`missing and this user cannot install packages: ${missing.join(', ')}; some tests will fail. Install those Debian packages.`);
    return;
  }
  say(`installing ${missing.join(', ')} from Debian packages (apt-get)`);
  const run = (args) => spawnSync(sudo[0] ?? args[0], sudo.length ? [...sudo.slice(1), ...args] : args.slice(1), { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  run(['apt-get', 'update']);
  const r = run(['apt-get', 'install', '-y', '--no-install-recommends', ...missing, 'fonts-dejavu-core']);
  if (r.status !== 0) say(`apt-get could not install ${missing.join(', ')}; some tests will fail`);
}

function exec(bin, args) {
  const child = spawn(bin, args, { stdio: 'inherit', cwd: ROOT });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

const bun = ensureBun();
ensureDeps(bun);
// Later steps (build, tests) call `bun` by name.
if (bun !== 'bun') process.env.PATH = `${join(TOOLS, 'node_modules', '.bin')}:${process.env.PATH}`;

if (mode === 'start') {
  say('building the web app and the single executable (bun run build)');
  const b = spawnSync(bun, ['scripts/build.ts'], { stdio: 'inherit', cwd: ROOT });
  if (b.status !== 0) process.exit(b.status ?? 1);
  exec(join(ROOT, 'dist', 'filedeck'), rest.length ? rest : ['serve']);
} else if (mode === 'test') {
  ensureSystemTools();
  exec(bun, ['scripts/run-tests.ts', ...rest]);
} else {
  say('usage: node scripts/bootstrap.mjs start|test');
  process.exit(1);
}
