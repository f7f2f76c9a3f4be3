// What holds a --run-python-autocomplete run in (src/python-model/contain.ts), with real python3 and
// real model.py files that try to get out: a child process that connects to a TCP server this test
// listens on (and to a Unix socket under /run), processes left behind (in the group and out of it,
// with setsid), a write outside the copy, and tritonc ended by SIGTERM, SIGHUP and a Ctrl-C mid-run.
// Processes are found by a marker in their argv (/proc/<pid>/cmdline: Linux), so by pid whatever
// namespace they run in. The namespace
// assertions are skipped (one line) where unshare cannot make namespaces, except under CI=true; where
// it cannot, stderr says so (a PATH without util-linux shows it here).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { boundary } from '../../src/python-model/contain.js';
import { pythonVersion, runAutoCompleteConfig } from '../../src/python-model/run.js';
import { BIN } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const linux = process.platform === 'linux';
const python = linux && pythonVersion();
if (!python) console.log(`tritonc: python-model containment tests skipped: ${linux ? 'no python3 runs here' : 'they read /proc (Linux)'}`);
const held = boundary();
const namespaces = held.kind === 'namespaces' || process.env.CI === 'true';
if (python && !namespaces) console.log(`tritonc: python-model namespace tests skipped: ${held.kind === 'none' ? held.why : ''}`);

/** python3's own path (sys.executable), to link into a PATH of the test's. */
const realPython = (): string => spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).stdout.trim();

let seq = 0;
const marker = (): string => `tritonc-contain-test-${process.pid}-${++seq}-${Date.now()}`;

/** The pids whose argv holds `mark`. */
function pidsWith(mark: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'latin1').includes(mark)) found.push(Number(entry));
    } catch {
      // Ended while listed.
    }
  }
  return found;
}

const marks: string[] = [];
afterEach(() => {
  // What a failing test left running (on a tritonc without the supervisor).
  for (const mark of marks.splice(0))
    for (const pid of pidsWith(mark))
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone */
      }
});

async function until(what: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (what()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return what();
}

function modelDir(body: string, prelude = ''): string {
  const dir = join(tempDir('tritonc-contain-'), 'm');
  mkdirSync(join(dir, '1'), { recursive: true });
  writeFileSync(join(dir, 'config.pbtxt'), 'backend: "python"\n');
  const indented = body
    .split('\n')
    .map((l) => `        ${l}`)
    .join('\n');
  writeFileSync(
    join(dir, '1', 'model.py'),
    `import os, socket, subprocess, sys, time\n${prelude}\nclass TritonPythonModel:\n    @staticmethod\n    def auto_complete_config(c):\n${indented}\n`,
  );
  return dir;
}
/** A Python statement that starts `code` in a new python3 whose argv ends with `mark`. */
const start = (code: string, mark: string, own = false): string =>
  `subprocess.Popen([sys.executable, "-c", ${JSON.stringify(code)}, ${JSON.stringify(mark)}]${own ? ', start_new_session=True' : ''})`;
const SLEEP = 'import time\ntime.sleep(1000)';

describe.skipIf(!python)('what holds a --run-python-autocomplete run in', () => {
  it('timeout: no process of the run survives it, in its group or out of it (setsid), with namespaces or without', () => {
    for (const held of [undefined, { kind: 'none', why: 'this test' } as const]) {
      const mark = marker();
      marks.push(mark);
      const dir = modelDir(`${start(SLEEP, `${mark}-group`)}\n${start(SLEEP, `${mark}-setsid`, true)}\nwhile True:\n    pass`);
      const facts = runAutoCompleteConfig(join(dir, '1', 'model.py'), '{"name":"m"}', { timeoutMs: 1500, ...(held ? { boundary: held } : {}) });
      expect(facts.unknown?.reason, held?.kind).toBe('auto_complete_config did not finish within 1.5 s');
      // The supervisor kills them before it returns: nothing to wait for.
      expect(pidsWith(mark), held?.kind).toEqual([]);
    }
  });

  it('a run that returns: what it started is killed at the end', () => {
    for (const held of [undefined, { kind: 'none', why: 'this test' } as const]) {
      const mark = marker();
      marks.push(mark);
      const dir = modelDir(`${start(SLEEP, `${mark}-group`)}\n${start(SLEEP, `${mark}-setsid`, true)}\nc.set_max_batch_size(4)\nreturn c`);
      const facts = runAutoCompleteConfig(join(dir, '1', 'model.py'), '{"name":"m"}', held ? { boundary: held } : {});
      expect(
        facts.calls.map((c) => c.method),
        held?.kind,
      ).toEqual(['set_max_batch_size']);
      expect(pidsWith(mark), held?.kind).toEqual([]);
    }
  });

  it.skipIf(!namespaces)('namespaces: a child process of model.py cannot connect out', async () => {
    const connections: string[] = [];
    const server = createServer((s) => {
      connections.push('connected');
      s.destroy();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      const port = (server.address() as { port: number }).port;
      // And a daemon's Unix socket under /run (docker's is /run/docker.sock), where this user may make one.
      const sock = `/run/tritonc-contain-test-${process.pid}.sock`;
      const unix = createServer((s) => {
        connections.push('connected over /run');
        s.destroy();
      });
      const inRun = await new Promise<boolean>((r) => unix.once('error', () => r(false)).listen(sock, () => r(true)));
      try {
        const code = `import socket\ns = socket.create_connection(("127.0.0.1", ${port}), timeout=3)\ns.sendall(b"x")\nprint("connected")`;
        const viaRun = `import socket\ns = socket.socket(socket.AF_UNIX)\ns.settimeout(3)\ns.connect(${JSON.stringify(sock)})\nprint("connected")`;
        const dir = modelDir(
          `n = 0\nfor code in (${JSON.stringify(code)}, ${JSON.stringify(viaRun)}):\n    r = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=8)\n    n += b"connected" in r.stdout\nc.set_max_batch_size(10 + n)\nreturn c`,
        );
        const facts = runAutoCompleteConfig(join(dir, '1', 'model.py'), '{"name":"m"}');
        expect(facts.calls.map((c) => c.arg)).toEqual([{ t: 'int', v: 10 }]);
        // The kernel queues a connection while this process waits; let the servers see any.
        await new Promise((r) => setTimeout(r, 300));
        expect(connections).toEqual([]);
        if (!inRun) console.log(`tritonc: the /run Unix socket case skipped: ${sock} cannot be made by this user`);
      } finally {
        unix.close();
      }
    } finally {
      server.close();
    }
  });

  it.skipIf(!namespaces)('namespaces: nothing is written outside the scratch directory, now or later', async () => {
    const out = tempDir('tritonc-contain-out-');
    const mark = marker();
    marks.push(mark);
    const later = join(out, 'later.txt');
    const now = join(out, 'now.txt');
    const dir = modelDir(
      [
        start(`import time\ntime.sleep(1.5)\nopen(${JSON.stringify(later)}, "w").write("x")`, mark, true),
        `try:\n    open(${JSON.stringify(now)}, "w").write("x")\n    wrote = 1\nexcept OSError:\n    wrote = 0`,
        'home = os.path.join(os.environ["HOME"], "scratch.txt")\nopen(home, "w").write("four")',
        'c.set_max_batch_size(wrote * 100 + len(open(home).read()))\nreturn c',
      ].join('\n'),
    );
    const facts = runAutoCompleteConfig(join(dir, '1', 'model.py'), '{"name":"m"}');
    // Refused outside; the scratch HOME works.
    expect(facts.calls.map((c) => c.arg)).toEqual([{ t: 'int', v: 4 }]);
    expect(pidsWith(mark)).toEqual([]);
    await new Promise((r) => setTimeout(r, 2500));
    expect(readdirSync(out)).toEqual([]);
  });

  it('where no namespace can be made, the run goes on and stderr says what is not held in', async () => {
    // A PATH with python3 and without util-linux's setpriv/unshare.
    const bin = tempDir('tritonc-contain-bin-');
    symlinkSync(realPython(), join(bin, 'python3'));
    const dir = modelDir('c.set_max_batch_size(4)\nreturn c');
    const r = spawnSync(process.execPath, [BIN, 'resolve', dir, '--run-python-autocomplete', '--format', 'json'], { env: { PATH: bin }, encoding: 'utf8' });
    expect(r.stderr).toBe(
      "tritonc: --run-python-autocomplete: no namespace can be made here (setpriv or unshare (util-linux) is not installed): model.py runs with this user's network and files (only Python's socket functions are refused)\n",
    );
    expect(JSON.parse(r.stdout)).toMatchObject({ max_batch_size: 4 });
  });

  describe('tritonc ended mid-run: the run and its children gone, the temporary copy removed', () => {
    for (const [signal, how] of [
      ['SIGTERM', 'to tritonc'],
      ['SIGHUP', 'to tritonc'],
      ['SIGINT', "to tritonc's process group (Ctrl-C at a terminal)"],
    ] as const) {
      it(`${signal} ${how}`, async () => {
        const mark = marker();
        marks.push(mark);
        const tmp = tempDir('tritonc-contain-tmp-');
        const dir = modelDir(`${start(SLEEP, `${mark}-group`)}\n${start(SLEEP, `${mark}-setsid`, true)}\nwhile True:\n    pass`);
        const child = spawn(process.execPath, [BIN, 'resolve', dir, '--run-python-autocomplete', '--format', 'json'], {
          env: { ...process.env, TMPDIR: tmp },
          stdio: 'ignore',
          detached: signal === 'SIGINT',
        });
        const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.on('exit', (code, sig) => r({ code, signal: sig })));
        expect(await until(() => pidsWith(mark).length === 2, 30_000)).toBe(true);
        const copies = readdirSync(tmp).filter((n) => n.startsWith('tritonc-autocomplete-'));
        expect(copies).toHaveLength(1);
        if (signal === 'SIGINT') process.kill(-child.pid!, 'SIGINT');
        else child.kill(signal);
        // tritonc has no handler: it ends by the signal (shells report 128 + its number: 130, 143, 129).
        expect(await exited).toEqual({ code: null, signal });
        expect(await until(() => pidsWith(mark).length === 0, 30_000)).toBe(true);
        expect(await until(() => !existsSync(join(tmp, copies[0]!)), 30_000)).toBe(true);
      }, 120_000);
    }
  });
});
