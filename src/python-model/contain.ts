// What holds a `--run-python-autocomplete` run in: a supervisor process of tritonc's own and, where
// the platform offers them, Linux namespaces. tritonc waits for the run synchronously (the workspace's
// facts are computed synchronously), so tritonc itself cannot act on a signal during it; the
// supervisor, a separate process that model.py never runs in, does: it starts the run as a process
// group of its own, kills that group (SIGKILL) at the timeout, at the end, on SIGINT/SIGTERM/SIGHUP
// and when tritonc dies (PR_SET_PDEATHSIG, and its parent pid checked as it waits), then on Linux
// every process the run left, in its group or not (a child subreaper: PR_SET_CHILD_SUBREAPER), and
// removes the temporary copy on every path. tritonc, having no handler, ends by the signal as any program does
// (130/143 as shells report it).
//
// Where `unshare` and `setpriv` (util-linux) can make namespaces, the run is also inside new user
// (or, as root without user namespaces, none), network, PID, mount, IPC and UTS namespaces: no
// network interface but a loopback that is down (Unix sockets in files outside /run stay reachable),
// no process that outlives the run (the kernel kills a PID namespace with its first process), every
// mount read-only but a scratch tmpfs (HOME, TMPDIR), /dev only null/zero/random/urandom, and no
// capabilities left to undo any of it. Elsewhere the run has this user's network and files (Python's
// own socket functions are refused, nothing more): the CLI says so on stderr. Elsewhere than on Linux
// (no subreaper) a process that leaves the group (setsid) survives the run.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type Boundary = { kind: 'namespaces'; unshare: readonly string[] } | { kind: 'none'; why: string };

/** What `Boundary.kind: 'none'` leaves open, for the CLI's notice and the docs. */
export const noBoundaryNote = (platform: NodeJS.Platform = process.platform): string =>
  `model.py runs with this user's network and files (only Python's socket functions are refused)${platform === 'linux' ? '' : ', and a process it moves out of its group outlives the run'}`;

// util-linux unshare(1): --user --map-root-user lets a user without privileges make the others;
// --fork --pid --kill-child: the run is PID 1 of its namespace and is killed (PR_SET_PDEATHSIG) when
// unshare is, and the kernel kills every process of the namespace when PID 1 ends.
const NAMESPACES = ['--net', '--pid', '--fork', '--kill-child=SIGKILL', '--mount', '--mount-proc', '--ipc', '--uts'];
const TRIES: readonly (readonly string[])[] = [['--user', '--map-root-user', ...NAMESPACES], NAMESPACES];

/**
 * Run as PID 1 of the namespaces (sh -c NS_SETUP boundary SCRATCH DEV COMMAND...): a tmpfs on SCRATCH
 * and one on DEV with null/zero/random/urandom bound in, DEV over /dev, an empty /run (the daemons'
 * Unix sockets: docker's, D-Bus's; a socket file is reachable through a read-only mount), every mount remounted
 * read-only (one that cannot be ends the run: the boundary would not be what the help says), SCRATCH
 * writable again, then COMMAND with no capabilities (so nothing can be remounted or unmounted).
 */
const NS_SETUP = `set -eu
scratch=$1; dev=$2; shift 2
mount -t tmpfs -o size=64m,mode=700 tritonc-scratch "$scratch"
mount -t tmpfs -o size=64k,mode=755 tritonc-dev "$dev"
for d in null zero random urandom; do : > "$dev/$d"; mount --bind "/dev/$d" "$dev/$d"; done
mount --rbind "$dev" /dev
for d in /run /var/run; do
  case "$scratch/" in "$d"/*) continue ;; esac
  if [ -d "$d" ] && [ ! -L "$d" ]; then mount -t tmpfs -o size=4k,mode=755 tritonc-run "$d"; fi
done
mounts=$(cut -d ' ' -f 2 /proc/self/mounts)
printf '%s\\n' "$mounts" | while IFS= read -r m; do
  m=$(printf '%b' "$m")
  if [ -e "$m" ]; then mount -o remount,bind,ro "$m"; fi
done
mount -o remount,bind,rw "$scratch"
exec setpriv --bounding-set=-all --inh-caps=-all --no-new-privs -- "$@"
`;

let probed: Boundary | undefined;

/** The boundary this machine offers (probed once: the real setup run with `true`). */
export function boundary(): Boundary {
  if (probed) return probed;
  if (process.platform !== 'linux') return (probed = { kind: 'none', why: 'namespaces are Linux only' });
  const dir = mkdtempSync(join(tmpdir(), 'tritonc-probe-'));
  try {
    mkdirSync(join(dir, 'scratch'));
    mkdirSync(join(dir, 'dev'));
    let why = '';
    for (const flags of TRIES) {
      const r = spawnSync('setpriv', namespaced(flags, join(dir, 'scratch'), join(dir, 'dev'), ['true']), {
        encoding: 'utf8',
        timeout: 5000,
        killSignal: 'SIGKILL',
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      });
      if (r.status === 0) return (probed = { kind: 'namespaces', unshare: flags });
      why = r.error
        ? `${(r.error as NodeJS.ErrnoException).code === 'ENOENT' ? 'setpriv or unshare (util-linux) is not installed' : r.error.message}`
        : (r.stderr ?? '').trim().split('\n').pop()?.slice(0, 300) || `exit ${r.status ?? r.signal}`;
    }
    return (probed = { kind: 'none', why });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** setpriv's arguments: COMMAND in the namespaces, its unshare killed (SIGKILL) when its parent dies. */
function namespaced(flags: readonly string[], scratch: string, dev: string, command: readonly string[]): string[] {
  return ['--pdeathsig', 'KILL', '--', 'unshare', ...flags, '--', 'sh', '-c', NS_SETUP, 'tritonc-boundary', scratch, dev, ...command];
}

export interface Supervised {
  /** exit: the run ended by itself; timeout, overflow: the supervisor ended it. */
  end: 'exit' | 'timeout' | 'overflow';
  /** The run's exit status (a negative number: the signal that ended it, as Python's subprocess says). */
  code: number | null;
  stdout: string;
  /** The last lines of its stderr. */
  stderr: string;
}

export interface SuperviseOptions {
  python: string;
  /** The run: argv (its first the Python, as the supervisor runs it). */
  command: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  input: string;
  timeoutMs: number;
  maxOutputBytes: number;
  /** The temporary directory of the run: the supervisor unseals and removes it on every path. */
  work: string;
  /** The scratch directory (HOME, TMPDIR) and the directory that becomes /dev, both in `work`. */
  scratch: string;
  dev: string;
  boundary: Boundary;
}

/** Runs `command` under the supervisor; an Error when the supervisor itself could not be run. */
export function supervise(o: SuperviseOptions): Supervised | Error {
  const command = o.boundary.kind === 'namespaces' ? ['setpriv', ...namespaced(o.boundary.unshare, o.scratch, o.dev, o.command)] : [...o.command];
  const spec = JSON.stringify({ cmd: command, cwd: o.cwd, timeout: o.timeoutMs / 1000, max: o.maxOutputBytes, work: o.work, parent: process.pid });
  // -I -S: the supervisor sees no PYTHON* variable, no user site, no site module.
  const r = spawnSync(o.python, ['-I', '-S', '-c', SUPERVISOR, spec], {
    input: o.input,
    env: o.env,
    encoding: 'utf8',
    // The supervisor's own bound is the timeout; this one only bounds a supervisor that hangs.
    timeout: o.timeoutMs + 15_000,
    killSignal: 'SIGKILL',
    maxBuffer: 8 * o.maxOutputBytes + 1024 * 1024,
  });
  if (r.error) return r.error;
  const last = (r.stdout ?? '').trimEnd().split('\n').pop() ?? '';
  try {
    return JSON.parse(last) as Supervised;
  } catch {
    return new Error(
      `the supervisor ended without a result (exit ${r.status ?? r.signal}): ${(r.stderr ?? '').trim().split('\n').slice(-2).join(' / ').slice(0, 300)}`,
    );
  }
}

/** The supervisor (argv[1]: {cmd, cwd, timeout, max, work, parent}; stdin: the run's stdin; stdout: one JSON line). */
const SUPERVISOR = `import json, os, shutil, signal, subprocess, sys, threading, time

spec = json.loads(sys.argv[1])
parent = spec["parent"]
try:
    import ctypes
    libc = ctypes.CDLL(None)
    libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG: told when tritonc dies
    # PR_SET_CHILD_SUBREAPER: what the run leaves behind (out of its group too) becomes a child of this one.
    reaper = libc.prctl(36, 1) == 0
except Exception:
    reaper = False
state = {"proc": None, "signal": None, "overflow": False}


def kill_group():
    if state["proc"] is not None:
        try:
            os.killpg(state["proc"].pid, signal.SIGKILL)
        except OSError:
            pass


def children():
    me, found = str(os.getpid()).encode(), []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open("/proc/" + entry + "/stat", "rb") as f:
                    stat = f.read()
                # The fields after the command, which may hold spaces and parentheses: state, ppid.
                if stat[stat.rindex(b")") + 2:].split()[1] == me:
                    found.append(int(entry))
            except (OSError, ValueError, IndexError):
                pass
    return found


def sweep():
    # Kills this process's children until none is left: each one's own children come here as it dies.
    deadline = time.monotonic() + 5
    while reaper and time.monotonic() < deadline:
        left = children()
        if not left:
            return
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        try:
            while os.waitpid(-1, os.WNOHANG)[0] != 0:
                pass
        except ChildProcessError:
            pass
        time.sleep(0.01)


def caught(signum, frame):
    state["signal"] = signum
    kill_group()


for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
    signal.signal(s, caught)


def remove_work():
    for root, dirs, files in os.walk(spec["work"]):
        try:
            os.chmod(root, 0o700)
        except OSError:
            pass
    shutil.rmtree(spec["work"], ignore_errors=True)


data = sys.stdin.buffer.read()
proc = None
if not reaper and sys.platform.startswith("linux"):
    # What the help says of Linux (every process the run starts is killed) needs the subreaper.
    remove_work()
    sys.stdout.write(json.dumps({"end": "exit", "code": None, "stdout": "", "stderr": "tritonc's supervisor could not become a child subreaper (prctl through ctypes), so the run was not started"}) + "\\n")
    sys.exit(0)
if state["signal"] is None and os.getppid() == parent:
    try:
        proc = subprocess.Popen(spec["cmd"], cwd=spec["cwd"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    except OSError as e:
        remove_work()
        sys.stdout.write(json.dumps({"end": "exit", "code": None, "stdout": "", "stderr": str(e)}) + "\\n")
        sys.exit(0)
    state["proc"] = proc
    if state["signal"] is not None:
        kill_group()
out, err = [], []


def feed():
    try:
        proc.stdin.write(data)
        proc.stdin.close()
    except OSError:
        pass


def read_out():
    size = 0
    while True:
        chunk = proc.stdout.read1(65536)
        if not chunk:
            return
        size += len(chunk)
        if size > spec["max"]:
            state["overflow"] = True
            kill_group()
            return
        out.append(chunk)


def read_err():
    while True:
        chunk = proc.stderr.read1(65536)
        if not chunk:
            return
        err.append(chunk)
        while len(err) > 2:
            err.pop(0)


end = "signal"
if proc is not None:
    threads = [threading.Thread(target=f, daemon=True) for f in (feed, read_out, read_err)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + spec["timeout"]
    while True:
        if state["signal"] is not None or os.getppid() != parent:
            break
        if state["overflow"]:
            end = "overflow"
            break
        if time.monotonic() > deadline:
            end = "timeout"
            break
        # Waited for without reaping: the group is killed while its leader still holds its id.
        if hasattr(os, "waitid"):
            if os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                end = "exit"
                break
        elif proc.poll() is not None:
            end = "exit"
            break
        time.sleep(0.02)
    kill_group()
    proc.wait()
    sweep()
    for t in threads[1:]:
        t.join(1)
remove_work()
if end == "signal":
    if os.getppid() == parent and state["signal"] is not None:
        signal.signal(state["signal"], signal.SIG_DFL)
        os.kill(os.getpid(), state["signal"])
    sys.exit(1)
tail = b"".join(err)[-4000:].decode("utf-8", "replace")
sys.stdout.write(json.dumps({"end": end, "code": proc.returncode, "stdout": b"".join(out).decode("utf-8", "replace"), "stderr": tail}) + "\\n")
`;
