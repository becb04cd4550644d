import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ExecSandbox } from '../../contract/settings';
import type { Config } from '../../core/config';
import { AppError } from '../../core/errors';
import { inside } from '../../fs/scoped-fs';
import { detectExecMode, SAFE_PATH, sandboxArgv } from '../runner/sandbox';
import { cancelled } from '../work/fair-slots';
import { MAX_PIXELS, MAX_SIDE } from './image-render';
import { programsMayRun, type PreviewSwitches } from './preview-gate';

/** Previews that come from an outside program rather than the image worker alone (HEIC: decoded here, resized there). */
export type ToolKind = 'pdf' | 'video' | 'heic';

/** What each kind needs: the Debian package named in messages, the program looked up on PATH, what it makes. */
const TOOLS: Record<ToolKind, { program: string; pkg: string; what: string }> = {
  pdf: { program: 'pdftoppm', pkg: 'poppler-utils', what: 'pdf thumbnails' },
  video: { program: 'ffmpeg', pkg: 'ffmpeg', what: 'video thumbnails' },
  heic: { program: 'heif-convert', pkg: 'libheif-examples', what: 'HEIC photos' },
};

/** A render past this is killed (a hostile or huge file must not hold a slot for long). */
export const TOOL_TIMEOUT_MS = 30_000;
/**
 * A thumbnail is a few KB; anything this large is not one, and the program is stopped. heif-convert writes the
 * whole photo as a JPEG at quality 90 (measured: a noisy 12 MP frame 4.8 MB, so the 50 MP limit ~20 MB): its cap
 * is raised to that and no further.
 */
const OUTPUT_CAP: Record<ToolKind, number> = { pdf: 4 * 1024 * 1024, video: 4 * 1024 * 1024, heic: 24 * 1024 * 1024 };

/**
 * The address space each program may map (prlimit --as, set before it starts: an allocation past it fails, the
 * program ends, the render fails; measured: ffmpeg's and ffprobe's libraries map ~200 MB before any work). A
 * program cannot hold more than this whatever the file promises; a frame over the pixel limit never gets this far
 * (probeVideo refuses it first). `probe`: ffprobe, which decodes a first frame to check it and needs none of it.
 */
const MEMORY_CAP: Record<ToolKind | 'probe', number> = { pdf: 1024 ** 3, video: 1024 ** 3, heic: 1024 ** 3, probe: 512 * 1024 ** 2 };
/** CPU seconds each program may use (prlimit --cpu): a kernel backstop behind the wall-clock limit of runTool. */
const CPU_SECONDS = 60;

const PRLIMIT = Bun.which('prlimit', { PATH: SAFE_PATH });

/**
 * `argv` (a sandboxed command, from sandboxed()) run under the memory cap of `kind` and the CPU limit: util-linux
 * prlimit when installed, else the shell's ulimit, both set on the process before it execs, inherited by the
 * sandbox and the program inside it.
 */
export function limited(kind: ToolKind | 'probe', argv: string[]): string[] {
  const bytes = MEMORY_CAP[kind];
  if (PRLIMIT) return [PRLIMIT, `--as=${bytes}`, `--cpu=${CPU_SECONDS}`, '--', ...argv];
  return [SH, '-c', `ulimit -v ${Math.floor(bytes / 1024)}; ulimit -t ${CPU_SECONDS}; exec "$@"`, SH, ...argv];
}

/** ffprobe, next to the ffmpeg found (the same package), else on PATH; null when missing. */
export function probeProgram(ffmpeg: string): string | null {
  const near = join(dirname(ffmpeg), 'ffprobe');
  return existsSync(near) ? near : Bun.which('ffprobe');
}

/**
 * The first video stream's size, asked of ffprobe (sandboxed, capped, the file as stdin as for renders) before
 * ffmpeg decodes anything: a stream above the image limits (MAX_SIDE, MAX_PIXELS) is refused with a 413, so a small
 * file that is really a 16000x16000 picture never gets a decoder's gigabytes. A file without a video stream is a
 * 501. Under its memory cap ffprobe still reports the size of a frame too big to decode (its decode fails, quickly).
 */
export async function probeVideo(s: ToolSandbox, ffmpeg: string, fd: number, signal: AbortSignal, timeoutMs = TOOL_TIMEOUT_MS): Promise<{ width: number; height: number }> {
  const probe = probeProgram(ffmpeg);
  if (!probe) throw new AppError('UNSUPPORTED', `${TOOLS.video.what} need ffprobe (Debian package ${TOOLS.video.pkg})`);
  const argv = [probe, '-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'csv=p=0:s=x', '/dev/stdin'];
  const out = await runTool(limited('probe', sandboxed(s, argv)), fd, signal, timeoutMs, 4096);
  const m = out && /^(\d+)x(\d+)/.exec(new TextDecoder().decode(out).trim());
  if (!m) throw new AppError('UNSUPPORTED', 'the video has no picture to show');
  const width = Number(m[1]);
  const height = Number(m[2]);
  if (width > MAX_SIDE || height > MAX_SIDE || width * height > MAX_PIXELS) throw new AppError('TOO_LARGE', `the video is ${width}x${height} pixels, above the preview limit`);
  return { width, height };
}

/** A kind's output cap (runTool's `cap`). */
export const outputCap = (kind: ToolKind) => OUTPUT_CAP[kind];

/** Absolute program paths found at start (null: not installed). */
export type ToolPaths = Record<ToolKind, string | null>;

/** Looks the programs up once (PATH as the server was started with). */
export function findTools(): ToolPaths {
  return { pdf: Bun.which(TOOLS.pdf.program), video: Bun.which(TOOLS.video.program), heic: Bun.which(TOOLS.heic.program) };
}

/** The one message for a missing program; the info prompt shows the same text (locales: viewers.pdfNeedsTool, videoNeedsTool, heicNeedsTool). */
export const missingTool = (kind: ToolKind) => new AppError('UNSUPPORTED', `${TOOLS[kind].what} need ${TOOLS[kind].program} (Debian package ${TOOLS[kind].pkg})`);

/** The message when the programs may not run for want of a sandbox; the info prompt's is viewers.thumbsNeedSandbox. */
export const noSandbox = (kind: ToolKind) =>
  new AppError('UNSUPPORTED', `${TOOLS[kind].what} need bubblewrap to run ${TOOLS[kind].program} sandboxed (install bubblewrap, or set execUnsafeNoSandbox to run it unconfined)`);

/** How the programs run here: inside bubblewrap, unconfined (the admin's unsafe flag), or not at all ('off'). */
export interface ToolSandbox {
  mode: ExecSandbox;
  bwrap: string | null;
}

/**
 * Decided once at start by the runner's own rule (sandbox.ts detectExecMode) without its enableExec switch: these
 * programs parse untrusted files whenever thumbnails are on, so they get bubblewrap when it works here, run
 * unconfined only with execUnsafeNoSandbox, and otherwise do not run at all.
 */
export function detectToolSandbox(c: Pick<Config, 'bwrapPath' | 'execUnsafeNoSandbox'>): Promise<ToolSandbox> {
  return detectExecMode({ enableExec: true, bwrapPath: c.bwrapPath, execUnsafeNoSandbox: c.execUnsafeNoSandbox });
}

/**
 * The one start-up line (serve logs it once; doctor shows it) when the programs would run unconfined or cannot run
 * for want of a sandbox. Null when they run sandboxed, or when the preview gate never lets them run (thumbnails off).
 */
export function toolSandboxWarning(switches: PreviewSwitches, mode: ExecSandbox): string | null {
  if (!programsMayRun(switches) || mode === 'bubblewrap') return null;
  if (mode === 'none-unsafe') return 'PDF, video and HEIC previews run WITHOUT a sandbox (execUnsafeNoSandbox): pdftoppm, ffmpeg and heif-convert parse uploaded files with all of the server\'s rights';
  return 'PDF, video and HEIC thumbnails are off: bubblewrap is missing or unusable here (install bubblewrap, or set execUnsafeNoSandbox to run pdftoppm, ffmpeg and heif-convert unconfined)';
}

/** What pdftoppm needs besides /usr to find fonts a PDF names but does not embed (read-only, when present). */
const FONT_CONFIG = ['/etc/fonts', '/var/cache/fontconfig'];

/**
 * The argv that runs one render confined: the runner's bubblewrap builder with no user folder at all (the file is
 * stdin), the system read-only, a private /tmp, no network, no server files. A program installed outside /usr is
 * shown read-only at its real path. Unsafe mode runs the argv as it is; 'off' never gets here (checked first).
 */
export function sandboxed(s: ToolSandbox, argv: string[], also: string[] = []): string[] {
  if (s.mode === 'off') throw new AppError('UNSUPPORTED', 'thumbnail programs cannot run without a sandbox here');
  if (!s.bwrap) return argv;
  const program = realpathSync(argv[0]!);
  const readOnly = [...FONT_CONFIG, ...[program, ...also.map((p) => realpathSync(p))].filter((p) => !inside(p, '/usr'))];
  return sandboxArgv({ bwrap: s.bwrap, network: false, hidden: [], readOnly }, null, '/', [program, ...argv.slice(1)]);
}

/**
 * heif-convert picks its output format by the output name's suffix and cannot write a JPEG to a socket (Bun's
 * stdout pipe is one: /proc/self/fd/1 cannot be opened), so it writes `out.jpg` into a folder of its own and `cat`
 * sends that to stdout. A file of several top-level images (a burst) is written as out-1.jpg, out-2.jpg…: the
 * first is sent. Its address space is capped at 1 GiB (measured: a 48 MP photo peaks at ~220 MB resident), so a
 * file whose grid data promises more than its `ispe` says cannot take the machine's memory. The script is a constant: the program, the folder and cat are its positional parameters, chosen
 * here, never from the user (whose file is stdin). Inside bubblewrap the folder is the sandbox's private /tmp (a
 * tmpfs that goes with it); unconfined, `dir` is a fresh private folder the caller removes.
 */
const HEIF_SCRIPT = 'ulimit -v 1048576; "$0" --quiet -q 90 /dev/stdin "$1/out.jpg" || exit 1; for f in "$1/out.jpg" "$1/out-1.jpg"; do [ -e "$f" ] && exec "$2" "$f"; done; exit 1';
const SH = '/bin/sh';

export function heifCommand(s: ToolSandbox, program: string, dir: string | null): string[] {
  const cat = realpathSync(Bun.which('cat', { PATH: SAFE_PATH }) ?? '/bin/cat');
  const real = realpathSync(program);
  return sandboxed(s, [SH, '-c', HEIF_SCRIPT, real, s.bwrap || !dir ? '/tmp' : dir, cat], [real, cat]);
}

/**
 * The argv of one thumbnail render. The file is the program's standard input, a descriptor the caller opened with
 * openRegular (a regular file, no symlink), and the program reads it as /dev/stdin: it reopens that same inode,
 * seekable, so no user path ever reaches the program and a name cannot be read as an option. JPEG on stdout.
 * `at`: the video position in seconds (a clip shorter than a second has no frame at 1 s).
 */
export function toolArgv(kind: Exclude<ToolKind, 'heic'>, program: string, at = 1): string[] {
  if (kind === 'pdf') return [program, '-f', '1', '-l', '1', '-scale-to', '256', '-jpeg', '-jpegopt', 'quality=80', '-singlefile', '/dev/stdin'];
  const fit = 'scale=256:256:force_original_aspect_ratio=increase,crop=256:256';
  return [program, '-nostdin', '-loglevel', 'error', '-threads', '1', '-ss', String(at), '-i', '/dev/stdin', '-frames:v', '1', '-an', '-sn', '-vf', fit, '-f', 'image2pipe', '-c:v', 'mjpeg', '-q:v', '4', 'pipe:1'];
}

/**
 * Runs one render: argv array (no shell), an empty environment, its own process group, the file as stdin, a time limit, an output cap,
 * and a kill when `signal` aborts. Resolves to the JPEG bytes, or null when the program wrote nothing (no frame
 * there). Throws UNAVAILABLE past the time limit, UNSUPPORTED when the program fails or writes too much.
 */
export async function runTool(argv: string[], fd: number, signal: AbortSignal, timeoutMs = TOOL_TIMEOUT_MS, cap = OUTPUT_CAP.pdf): Promise<Uint8Array | null> {
  if (signal.aborted) throw cancelled();
  // Its own process group (detached), killed whole: a helper it started cannot keep the output pipe open.
  const proc = Bun.spawn(argv, { stdin: fd, stdout: 'pipe', stderr: 'ignore', env: {}, cwd: '/', detached: true });
  const killGroup = () => {
    try {
      process.kill(-proc.pid, 'SIGKILL');
    } catch {
      proc.kill('SIGKILL');
    }
  };
  let why: AppError | null = null;
  const stop = (e: AppError) => {
    why ??= e;
    killGroup();
  };
  const onAbort = () => stop(cancelled());
  signal.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => stop(new AppError('UNAVAILABLE', `the thumbnail took longer than ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
  try {
    const chunks: Uint8Array[] = [];
    let total = 0;
    for await (const c of proc.stdout) {
      total += c.length;
      if (total > cap) {
        stop(new AppError('UNSUPPORTED', 'the thumbnail cannot be made'));
        break;
      }
      chunks.push(c);
    }
    const code = await proc.exited;
    if (why) throw why;
    if (code !== 0) throw new AppError('UNSUPPORTED', 'the thumbnail cannot be made from this file');
    return total ? Buffer.concat(chunks) : null;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
    if (proc.exitCode === null) killGroup();
  }
}
