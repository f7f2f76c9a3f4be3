// tritonc inspect and generate on TorchScript models (fixtures/models/pytorch, real torch 2.5.1
// exports): inspect prints forward's signature and says types and shapes are not recorded; generate
// refuses, and its message is the config to write, with what the model gives filled in.
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/snapshot.js';
import { cli, tempDir } from '../support/cli.js';

let dir: string;
beforeAll(() => {
  dir = tempDir();
  for (const [model, from] of [
    ['addsub', 'libtorch_float32_float32_float32'],
    ['dictm', 'libtorch_dict'],
    ['optional', 'libtorch_optional'],
  ] as const) {
    mkdirSync(join(dir, model, '1'), { recursive: true });
    copyFileSync(join(ROOT, 'fixtures/models/pytorch', from, '1/model.pt'), join(dir, model, '1/model.pt'));
  }
});

describe('tritonc inspect model.pt', () => {
  it("prints forward's signature: names, annotations, no types or shapes", async () => {
    const r = await cli(['inspect', 'addsub/1/model.pt'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('TorchScript forward(self: __torch__.AddSubNet, INPUT0: Tensor, INPUT1: Tensor) -> Tuple[Tensor, Tensor]');
    expect(r.stdout).toContain('TorchScript records no data types or shapes');
    expect(r.stdout).toMatch(/input\s+INPUT0\s+Tensor\s+\(not recorded\)\s+\(not recorded\)/);
    expect(r.stdout).toMatch(/output\s+OUTPUT__1\s+Tensor/);
  });

  it('the JSON contract, with the format and forward; a model directory finds its model.pt', async () => {
    const r = await cli(['inspect', 'addsub', '--format', 'json'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.path).toBe('addsub/1/model.pt');
    expect(j.format).toBe('torchscript');
    expect(j.forward.outputCount).toBe(2);
    expect(j.inputs[0]).toEqual({ name: 'INPUT0', kind: 'tensor', elemType: 'Tensor', tritonType: null, shape: null });
  });

  it('a torch.save checkpoint is refused with what to write instead', async () => {
    const ck = join(dir, 'ckpt', '1');
    mkdirSync(ck, { recursive: true });
    copyFileSync(join(ROOT, 'fixtures/models/pytorch/torch_save_checkpoint/1/model.pt'), join(ck, 'model.pt'));
    const r = await cli(['inspect', 'ckpt/1/model.pt'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('a torch.save checkpoint (pickled weights or module), not a TorchScript model');
  });
});

describe('tritonc generate for a TorchScript model', () => {
  it('refuses, and the message is the config with what can be known and what to fill', async () => {
    const r = await cli(['generate', 'addsub'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('a TorchScript model records no data types or shapes');
    expect(r.stderr).toContain('name: "addsub"\nbackend: "pytorch"');
    expect(r.stderr).toContain('{ name: "INPUT0" data_type: <TYPE> dims: [ <dims> ] }');
    expect(r.stderr).toContain('{ name: "OUTPUT__1" data_type: <TYPE> dims: [ <dims> ] }');
    expect(existsSync(join(dir, 'addsub', 'config.pbtxt'))).toBe(false);
  });

  it('a Dict model: one input per key; a model Triton refuses: why', async () => {
    expect((await cli(['generate', 'dictm/1/model.pt'], { cwd: dir })).stderr).toContain(
      `{ name: "<key>" data_type: <TYPE> dims: [ <dims> ] }  # one per key forward reads from 'inputs'`,
    );
    expect((await cli(['generate', 'optional'], { cwd: dir })).stderr).toContain(
      `forward's argument 'mask' is Optional[Tensor], and Triton's PyTorch backend refuses such a model ("An input of type 'Tensor?' was detected`,
    );
  });
});
