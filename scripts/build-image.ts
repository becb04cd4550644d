/**
 * Builds the container image with podman: the compiled executable and the C libraries it links, FROM scratch
 * (no base image is needed, so nothing is pulled from a registry).
 * Usage: bun scripts/build-image.ts [--tag filedeck:dev] [--bin dist/filedeck]
 * Prints the image size. Needs podman (Debian: podman runc); see containerEnv() for this VM's adjustments.
 */
import { $ } from 'bun';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dir, '..');
const argv = process.argv.slice(2);
const arg = (name: string, dflt: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1]! : dflt);
const tag = arg('--tag', 'filedeck:latest');
const bin = resolve(ROOT, arg('--bin', process.env.FILEDECK_BIN ?? 'dist/filedeck'));

/**
 * podman settings this machine kind needs (stack-notes §15): no default ulimits (setrlimit NPROC is refused),
 * runc instead of crun, cgroupfs. Written to a private containers.conf; harmless elsewhere.
 */
export function containerEnv(dir: string): { env: Record<string, string>; runArgs: string[] } {
  const conf = join(dir, 'containers.conf');
  writeFileSync(conf, '[containers]\ndefault_ulimits = []\n');
  return { env: { ...process.env, CONTAINERS_CONF: conf } as Record<string, string>, runArgs: ['--runtime', 'runc', '--cgroup-manager', 'cgroupfs'] };
}

/** The shared libraries the executable links (ldd), with the loader. */
async function libraries(file: string): Promise<string[]> {
  const out = await $`ldd ${file}`.text();
  return [...out.matchAll(/(\/[^\s]+\.so[^\s]*)/g)].map((m) => m[1]!).filter((p, i, a) => a.indexOf(p) === i);
}

if (import.meta.main) {
  if (!existsSync(bin)) {
    console.error(`no executable at ${bin}: run "bun run build" first`);
    process.exit(1);
  }
  const ctx = mkdtempSync(join(tmpdir(), 'filedeck-image-'));
  try {
    const fs = join(ctx, 'rootfs');
    for (const d of ['usr/local/bin', 'etc', 'tmp']) mkdirSync(join(fs, d), { recursive: true });
    copyFileSync(bin, join(fs, 'usr/local/bin/filedeck'));
    chmodSync(join(fs, 'usr/local/bin/filedeck'), 0o755);
    for (const lib of await libraries(bin)) {
      mkdirSync(join(fs, dirname(lib)), { recursive: true });
      copyFileSync(lib, join(fs, lib)); // copyFile follows the symlink: the real library under the linked name
    }
    writeFileSync(join(fs, 'etc/passwd'), 'root:x:0:0::/root:/sbin/nologin\nfiledeck:x:10001:10001::/data:/sbin/nologin\n');
    writeFileSync(join(fs, 'etc/group'), 'root:x:0:\nfiledeck:x:10001:\n');
    chmodSync(join(fs, 'tmp'), 0o1777);
    // /data is copied by its own COPY --chown (Containerfile): a fresh named volume takes its owner.
    mkdirSync(join(ctx, 'data'));
    copyFileSync(join(ROOT, 'scripts/deploy/Containerfile'), join(ctx, 'Containerfile'));
    const { env } = containerEnv(ctx);
    await $`podman build --format docker -t ${tag} -f ${join(ctx, 'Containerfile')} ${ctx}`.env(env);
    const size = (await $`podman image inspect ${tag} --format {{.Size}}`.env(env).text()).trim();
    console.log(`image ${tag}: ${(Number(size) / 1048576).toFixed(1)} MiB`);
  } finally {
    rmSync(ctx, { recursive: true, force: true });
  }
}
