// The verify command's implementation: flags -> VerifyOptions -> verifyModel -> report and exit code.
import { parseTimeout } from '../verify/timeout.js';
import { parseGpus } from '../verify/docker-args.js';
import { CannotRun } from '../verify/errors.js';
import { normalizeServerUrl } from '../verify/kserve-client.js';
import { dryRunText, reportText } from '../verify/report.js';
import { RUNTIMES } from '../verify/runtimes/index.js';
import type { RuntimeOption } from '../verify/runtimes/runtime.js';
import { dryRunVerify, verifyModel, type VerifyOptions } from '../verify/verify.js';

/** What tests inject in place of Docker and the ports (cli/verify.ts setVerifyDeps). */
type VerifyDeps = NonNullable<VerifyOptions['deps']>;
import { EXIT, UsageError } from './errors.js';
import { serverFlagsFromArgs } from './server-flags.js';
import { parseShapeFlag } from '../verify/input-sizes.js';
import type { InputFiles } from '../verify/user-inputs/load.js';
import { DEFAULT_SERVER_OPTIONS, applyServerFlags } from '../triton/server-options.js';

/** --header NAME:VALUE (repeatable): sent with every request to the server. */
function headersFrom(flags: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of flags) {
    // A token name, and a value of visible characters, spaces and tabs (RFC 9110 field-value): a CR
    // or LF would end the header and start another.
    const m = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*([\t\x20-\x7e\x80-\xff]*)$/.exec(f);
    if (!m || !m[2])
      throw new UsageError(
        `--header takes NAME:VALUE, with no line breaks or control characters, e.g. --header admin-key:secret (the header a server started with --http-restricted-api expects); got ${quoted(f)}`,
      );
    out[m[1]!.toLowerCase()] = m[2];
  }
  return out;
}
import type { CliIO } from './io.js';
import type { VerifyArgs } from './verify-flags.js';
import { escapeControlKeepingLines, quoted } from '../util/terminal-text.js';

/** The flags that set a runtime-specific option (runtimes/runtime.ts RuntimeOption), and why only some runtimes read it. */
const RUNTIME_FLAGS: { option: RuntimeOption; flags: string[]; given(a: VerifyArgs): boolean; why?: string }[] = [
  { option: 'engine', flags: ['--engine'], given: (a) => a.engine !== undefined },
  { option: 'image', flags: ['--image'], given: (a) => a.image !== undefined },
  { option: 'gpus', flags: ['--gpus'], given: (a) => a.gpus !== undefined, why: 'a running server has its GPUs already' },
  { option: 'server', flags: ['--server'], given: (a) => a.server !== undefined },
  { option: 'headers', flags: ['--header'], given: (a) => a.header !== undefined },
  { option: 'tritonserverBinary', flags: ['--tritonserver'], given: (a) => a.tritonserver !== undefined },
  { option: 'launcher', flags: ['--launcher'], given: (a) => a.launcher !== undefined },
  {
    option: 'reference',
    flags: ['--reference'],
    given: (a) => a.reference !== undefined,
    why: 'it compares what a Triton serves with ONNX Runtime; --runtime ort is ONNX Runtime already',
  },
  {
    option: 'serverOptions',
    flags: ['--disable-auto-complete-config', '--strict-model-config', '--backend-config'],
    given: (a) => a.disableAutoCompleteConfig !== undefined || a.strictModelConfig !== undefined || a.backendConfig !== undefined,
    why: 'passed to the tritonserver it starts, or how the running server was started; ONNX Runtime has no server',
  },
  {
    option: 'backendDirectory',
    flags: ['--backend-directory'],
    given: (a) => a.backendDirectory !== undefined,
    why: 'a path on this machine, for the tritonserver started here: an image and a running server have their own',
  },
];

/** --input NAME=FILE (repeatable) and --inputs FILE, as the reference reads them. */
function inputFilesFrom(flags: readonly string[], archive: string | undefined): InputFiles | undefined {
  const perInput = flags.map((f) => {
    const at = f.indexOf('=');
    if (at <= 0 || at === f.length - 1)
      throw new UsageError(`--input takes NAME=FILE, the input's name and an .npy or .json file, e.g. --input input=batch.npy; got ${quoted(f)}`);
    return { name: f.slice(0, at), file: f.slice(at + 1) };
  });
  if (archive === '') throw new UsageError('--inputs takes one .npz or .json file holding the inputs by name');
  if (!perInput.length && archive === undefined) return undefined;
  return { ...(perInput.length ? { perInput } : {}), ...(archive !== undefined ? { archive } : {}) };
}

function optionsFromArgs(a: VerifyArgs, io: CliIO, injected: VerifyDeps | undefined): VerifyOptions {
  // --server alone names the runtime that reads it.
  const runtime = a.runtime ?? (a.server !== undefined ? RUNTIMES.find((r) => r.takes.includes('server'))!.name : RUNTIMES[0]!.name);
  const timeoutMs = parseTimeout(a.timeout);
  if (timeoutMs === undefined) throw new UsageError(`--timeout takes a duration such as 120s, 10m or 90 (seconds); got "${a.timeout}"`);
  const chosen = RUNTIMES.find((r) => r.name === runtime);
  if (!chosen) throw new UsageError(`--runtime takes ${RUNTIMES.map((r) => r.name).join(', ')}; got ${quoted(runtime)}`);
  // A runtime-specific flag given to a runtime that does not read it is a mistake, not a no-op.
  for (const f of RUNTIME_FLAGS) {
    if (!f.given(a) || chosen.takes.includes(f.option)) continue;
    const takers = RUNTIMES.filter((r) => r.takes.includes(f.option)).map((r) => r.name);
    const names = f.flags.length > 1 ? `${f.flags.slice(0, -1).join(', ')} and ${f.flags.at(-1)} apply` : `${f.flags[0]} applies`;
    throw new UsageError(`${names} to --runtime ${takers.join(' and ')}${f.why ? ` (${f.why})` : ''}`);
  }
  const server = serverFlagsFromArgs(a, io.cwd);
  const serverFlagGiven = RUNTIME_FLAGS.some((f) => (f.option === 'serverOptions' || f.option === 'backendDirectory') && f.given(a));
  const shapes = (a.shape ?? []).map((f) => {
    const parsed = parseShapeFlag(f);
    if (!parsed) throw new UsageError(`--shape takes NAME:D1,D2,... (the item shape without the batch dim), e.g. --shape audio:1,16000; got "${f}"`);
    return parsed;
  });
  const options: VerifyOptions = { modelDir: a.model_dir, cwd: io.cwd, runtime, timeoutMs, ...(shapes.length ? { shapes } : {}) };
  if (serverFlagGiven) options.serverOptions = applyServerFlags(DEFAULT_SERVER_OPTIONS, server);
  // --triton-version: the Triton the verdicts are for, said against the server's own version.
  if (server.target) options.target = server.target;
  const headers = headersFrom(a.header ?? []);
  if (Object.keys(headers).length) options.headers = headers;
  if (a.engine !== undefined) options.engine = a.engine;
  if (a.image !== undefined) {
    const image = a.image.trim();
    // A leading '-' would reach docker or podman as a flag of theirs (--image=-v/:/host).
    if (!image || /\s/.test(image) || image.startsWith('-'))
      throw new UsageError(`--image takes an image reference such as nvcr.io/nvidia/tritonserver:26.07-py3; got ${quoted(a.image)}`);
    options.image = image;
  }
  if (a.tritonserver !== undefined) {
    const path = a.tritonserver;
    if (!path || /[\x00-\x1f\x7f]/.test(path)) throw new UsageError(`--tritonserver takes the path of the tritonserver binary; got ${quoted(path)}`);
    options.tritonserverBinary = path;
  }
  if (a.launcher !== undefined) {
    const words = a.launcher.trim().split(/\s+/).filter(Boolean);
    if (!words.length || words.some((w) => /[\x00-\x1f\x7f]/.test(w)))
      throw new UsageError(
        `--launcher takes a command as words separated by spaces, e.g. --launcher 'apptainer exec --nv triton.sif'; got ${quoted(a.launcher)}`,
      );
    options.launcher = words;
  }
  const tolerance = (flag: 'atol' | 'rtol'): number | undefined => {
    const given = a[flag];
    if (given === undefined) return undefined;
    const value = Number(given);
    if (!/^\s*[0-9.eE+-]+\s*$/.test(given) || !Number.isFinite(value) || value < 0)
      throw new UsageError(`--${flag} takes a number of 0 or more, e.g. --${flag} 1e-3; got ${quoted(given)}`);
    return value;
  };
  const atol = tolerance('atol');
  const rtol = tolerance('rtol');
  if (
    a.reference === undefined &&
    (a.referenceModel !== undefined || atol !== undefined || rtol !== undefined || a.input !== undefined || a.inputs !== undefined)
  ) {
    throw new UsageError('--reference-model, --atol, --rtol, --input and --inputs apply to --reference ort');
  }
  if (a.reference !== undefined) {
    const inputs = inputFilesFrom(a.input ?? [], a.inputs);
    options.reference = {
      ...(a.referenceModel !== undefined ? { modelFile: a.referenceModel } : {}),
      ...(atol !== undefined ? { atol } : {}),
      ...(rtol !== undefined ? { rtol } : {}),
      ...(inputs ? { inputs } : {}),
    };
  }
  if (a.gpus !== undefined) {
    const gpus = parseGpus(a.gpus);
    if (!gpus) throw new UsageError(`--gpus takes all, none, or device ids such as 0,1; got "${a.gpus}"`);
    options.gpus = gpus;
  }
  if (chosen.takes.includes('server')) {
    if (a.server === undefined) throw new UsageError(`--runtime ${runtime} needs --server URL, e.g. --server http://localhost:8000`);
    const url = normalizeServerUrl(a.server);
    if (!url) throw new UsageError(`--server takes Triton's HTTP URL, e.g. http://localhost:8000; got "${a.server}"`);
    options.server = url;
  }
  // Progress lines only for a person watching a terminal.
  if (io.stdoutIsTTY && a.format !== 'json') options.progress = (line) => io.stderr(`... ${line}\n`);
  if (injected) options.deps = injected;
  return options;
}

export async function runVerify(a: VerifyArgs, io: CliIO, injected?: VerifyDeps): Promise<number> {
  const options = optionsFromArgs(a, io, injected);
  const json = a.format === 'json';
  if (a.dryRun) {
    try {
      const d = await dryRunVerify(options);
      io.stdout(json ? `${JSON.stringify(d, null, 2)}\n` : dryRunText(d));
      return EXIT.ok;
    } catch (e) {
      if (e instanceof CannotRun) throw new UsageError(`${e.message}`);
      throw e;
    }
  }
  const report = await verifyModel(options);
  if (json) io.stdout(`${JSON.stringify(report, null, 2)}\n`);
  if (report.outcome === 'cannot-run' || report.outcome === 'interrupted') {
    // A comparison that decided nothing ran: its numbers are shown, then why they decided nothing.
    if (!json && report.reference) io.stdout(escapeControlKeepingLines(reportText(report)));
    // The error quotes files, servers and containers (a remote party's text): escaped before the terminal.
    io.stderr(`tritonc verify: ${escapeControlKeepingLines(report.error ?? report.outcome)}\n`);
    // A server left changed is said in every format, whatever else went wrong.
    for (const p of report.problems) if (p.kind === 'restore') io.stderr(`tritonc verify: error: ${escapeControlKeepingLines(p.message)}\n`);
  } else if (!json) {
    io.stdout(escapeControlKeepingLines(reportText(report)));
  }
  return report.exitCode;
}
