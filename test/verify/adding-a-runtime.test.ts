// "Adding a runtime" (docs/architecture.md), checked: one record added to the registry, and verify,
// its dry run and the command line use it with no other change. The registry is the only module replaced.
import { describe, expect, it, vi } from 'vitest';
import type { VerifyRuntime } from '../../src/verify/runtimes/runtime.js';
import { dryRunVerify, verifyModel } from '../../src/verify/verify.js';
import { cli } from '../support/cli.js';
import { CLASSIFIER, CLASSIFIER_CONFIG, writeRepo } from '../lint/harness.js';
import { join } from 'node:path';

// A runtime that "serves" the model at a URL and answers every output with the shape the config says.
const TOY = vi.hoisted(
  () =>
    ({
      name: 'toy',
      summary: 'a toy server (--server)',
      takes: ['server'],
      afterInterrupt: 'the toy stopped',
      run: async (plan, report, options) => {
        report.notes.push(`toy at ${options.server}`);
        report.runs.push({
          batchSize: null,
          ok: true,
          inputs: [],
          outputs: plan.outputs.map((o) => ({
            name: o.name,
            dataType: o.dataType,
            shape: o.dims,
            expectedShape: o.dims,
            expectedDataType: o.dataType,
            ok: true,
          })),
        });
      },
      dryRun: async (plan, options) => ({ requests: [{ method: 'POST', url: `${options.server}/v2/models/${plan.modelName}/infer` }] }),
    }) satisfies VerifyRuntime,
);

vi.mock('../../src/verify/runtimes/index.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/verify/runtimes/index.js')>();
  return { RUNTIMES: [...original.RUNTIMES, TOY] };
});

const repository = () => writeRepo({ 'classifier/config.pbtxt': CLASSIFIER_CONFIG, 'classifier/1/model.onnx': CLASSIFIER });

describe('a toy verify runtime', () => {
  it('verify runs it and reports what it found', async () => {
    const repo = await repository();
    const report = await verifyModel({ modelDir: join(repo, 'classifier'), runtime: 'toy', server: 'http://toy:1' });
    expect([report.outcome, report.exitCode, report.runtime]).toEqual(['ok', 0, 'toy']);
    expect(report.notes).toContain('toy at http://toy:1');
    expect(report.runs[0]!.outputs.map((o) => o.name)).toEqual(['output']);
  });

  it('its dry run says what it would send', async () => {
    const repo = await repository();
    const dry = await dryRunVerify({ modelDir: join(repo, 'classifier'), runtime: 'toy', server: 'http://toy:1' });
    expect(dry).toMatchObject({ runtime: 'toy', model: 'classifier', requests: [{ url: 'http://toy:1/v2/models/classifier/infer' }] });
  });

  it('the command line takes it, with the flags it reads and not the others', async () => {
    const repo = await repository();
    const ok = await cli(['verify', 'classifier', '--runtime', 'toy', '--server', 'http://toy:1', '--format', 'json'], { cwd: repo });
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ runtime: 'toy', outcome: 'ok' });
    const image = await cli(['verify', 'classifier', '--runtime', 'toy', '--image', 'x'], { cwd: repo });
    expect([image.code, image.stderr]).toEqual([2, 'tritonc verify: --image applies to --runtime docker\n']);
    const headers = await cli(['verify', 'classifier', '--runtime', 'docker', '--header', 'a:b'], { cwd: repo });
    expect(headers.stderr).toContain('--header applies to --runtime server');
    const help = await cli(['verify', '--help'], { cwd: repo });
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('toy: a toy server (--server)');
  });
});
