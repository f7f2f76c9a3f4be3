// Flags as each command's --help documents them: a one-value flag given twice, and what a bare number
// (no unit) means to each duration flag. Each command is run in-process (runCli) up to the first step
// past the flag's check: the message then names the next thing missing, never the flag.
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { CLASSIFIER, CLASSIFIER_CONFIG, writeRepo } from '../lint/harness.js';
import { parseDuration } from '../../src/util/duration.js';
import { parseTimeout } from '../../src/verify/timeout.js';

describe('flags given twice', () => {
  it.each([
    [
      ['verify', '/nonexistent', '--timeout', '1s', '--timeout', '2s'],
      'tritonc verify: --timeout takes one value, and was given 2 times ("1s", "2s"): give it once\n',
    ],
    [['resolve', '/nonexistent', '--gpus', '1', '--gpus', '2'], 'tritonc resolve: --gpus takes one value, and was given 2 times ("1", "2"): give it once\n'],
    [
      ['lint', '/nonexistent', '--format', 'json', '--format', 'stylish'],
      'tritonc lint: --format takes one value, and was given 2 times ("json", "stylish"): give it once\n',
    ],
    [['lock', '/nonexistent', '-o', 'a', '-o', 'b'], 'tritonc lock: -o takes one value, and was given 2 times ("a", "b"): give it once\n'],
  ])('%j is refused, exit 2, naming the flag (yargs would make it a list)', async (args, message) => {
    const r = await cli(args, { cwd: '/tmp' });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`${message}Run tritonc --help for usage.\n`);
  });

  it('a repeatable flag given twice keeps both values', async () => {
    const r = await cli(['lint', '/nonexistent', '--rule', 'no-such-rule=off', '--rule', 'other=warn'], { cwd: '/tmp' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--rule no-such-rule=off: unknown rule 'no-such-rule'");
  });
});

describe("a bare number, as each duration flag's --help says", () => {
  it('the one parser: a unit always counts; a bare number is what the caller says', () => {
    expect(['500us', '5ms', '0.5s', '2m', '1min'].map((t) => parseDuration(t, 'refused'))).toEqual([500, 5000, 500_000, 120_000_000, 60_000_000]);
    expect([parseDuration('5', 'microseconds'), parseDuration('5', 'seconds'), parseDuration('5', 'refused')]).toEqual([5, 5_000_000, undefined]);
    expect([parseDuration('5x', 'seconds'), parseDuration('-5', 'seconds'), parseDuration('', 'microseconds')]).toEqual([undefined, undefined, undefined]);
    expect([parseTimeout('90'), parseTimeout('10m'), parseTimeout('500ms'), parseTimeout('0')]).toEqual([90_000, 600_000, 500, undefined]);
  });

  it.each([
    [['generate'], '--max-queue-delay How long a request may wait to be batched, with its unit: 5ms, 500us, 0.5s (a bare number is refused'],
    [['verify'], 'how long the model may take to load, e.g. 120s, 10m; a bare number is seconds'],
    [['tune'], "each variant's load may take, e.g. 120s or 10m; a bare number is seconds, as verify --timeout"],
    [['tune'], "max_queue_delay_microseconds values to try (durations; a bare number is microseconds, Triton's unit)"],
    [['tune'], "must stay within (e.g. 20ms; a bare number is microseconds, Triton's unit)"],
  ])('%j --help says what a bare number is', async (command, said) => {
    const r = await cli([...command, '--help']);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(said);
  });

  it('generate --max-queue-delay: refused ("with its unit: ... a bare number is refused")', async () => {
    const r = await cli(['generate', '/nonexistent', '--max-queue-delay', '5'], { cwd: '/tmp' });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('tritonc generate: --max-queue-delay takes a duration with its unit: us, ms or s (e.g. 500us, 5ms, 0.5s); got "5"\n');
    const dir = await writeRepo({ 'classifier/config.pbtxt': CLASSIFIER_CONFIG, 'classifier/1/model.onnx': CLASSIFIER });
    const ok = await cli(['generate', `${dir}/classifier`, '--max-batch-size', '8', '--max-queue-delay', '0.5ms']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('max_queue_delay_microseconds: 500');
  });

  it('verify --timeout: seconds ("a bare number is seconds")', async () => {
    // Accepted: the next check is the model directory's.
    const r = await cli(['verify', '/nonexistent', '--timeout', '90'], { cwd: '/tmp' });
    expect(r.stderr).not.toContain('--timeout');
    expect(r.stderr).toContain('/nonexistent: no such directory');
    expect((await cli(['verify', '/nonexistent', '--timeout', '0'], { cwd: '/tmp' })).stderr).toContain(
      '--timeout takes a duration such as 120s, 10m or 90 (seconds); got "0"',
    );
  });

  it('tune run --timeout: seconds, as verify --timeout ("a bare number is seconds")', async () => {
    const dir = await writeRepo({ 'classifier/config.pbtxt': CLASSIFIER_CONFIG, 'classifier/1/model.onnx': CLASSIFIER });
    // 120 is 120 s, past the 1 s floor: the next check is --runtime server's --server.
    const r = await cli(['tune', 'run', `${dir}/classifier`, '--latency-budget', '20ms', '--runtime', 'server', '--timeout', '120']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--runtime server needs --server http://host:port');
    const short = await cli(['tune', 'run', `${dir}/classifier`, '--latency-budget', '20ms', '--runtime', 'server', '--timeout', '0.5']);
    expect(short.stderr).toContain('--timeout: "0.5" is not a duration of 1s or more (e.g. 120s)');
  });

  it('tune --latency-budget and --delays: microseconds, Triton\'s unit ("a bare number is microseconds")', async () => {
    const dir = await writeRepo({ 'classifier/config.pbtxt': CLASSIFIER_CONFIG, 'classifier/1/model.onnx': CLASSIFIER });
    const r = await cli(['tune', 'run', `${dir}/classifier`, '--latency-budget', '20000', '--delays', '0,100,1ms', '--runtime', 'server']);
    expect(r.stderr).toContain('--runtime server needs --server');
    expect((await cli(['tune', 'run', `${dir}/classifier`, '--latency-budget', '0', '--runtime', 'server'])).stderr).toContain(
      '--latency-budget: "0" is not a duration (20ms, 500us, 1s)',
    );
    expect((await cli(['tune', 'run', `${dir}/classifier`, '--latency-budget', '20ms', '--delays', '0.5', '--runtime', 'server'])).stderr).toContain(
      '--delays: "0.5" is not a duration in whole microseconds',
    );
  });
});
