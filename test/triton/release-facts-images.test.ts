// The facts of NVIDIA's images by release: which backends each flavour has, the TensorRT-LLM and vLLM
// each release's LLM image bundles (server docs/introduction/compatibility.md @ r26.08), and the
// --allow-client-shm default (server src/command_line_parser.cc @ r26.04); each at the release before
// and the release after it changed.
import { describe, expect, it } from 'vitest';
import { trtllmVersionIn } from '../../src/triton/backends/tensorrtllm/bundled.js';
import { vllmListIn, vllmVersionIn } from '../../src/triton/backends/vllm/bundled.js';
import { releaseNamed } from '../../src/triton/releases/catalog.js';
import { changesBetween } from '../../src/triton/releases/changes.js';
import { FLAVOURS, flavourHas, flavoursWith } from '../../src/triton/releases/flavours.js';
import { RELEASE_CHANGES } from '../../src/triton/releases/index.js';
import { CLIENT_SHM_DISABLED, clientShmNeedsOptIn } from '../../src/triton/releases/server-flag-defaults.js';
import { TargetError, parseTarget } from '../../src/triton/releases/target.js';

const flavour = (tag: string) => FLAVOURS.find((f) => f.tag === tag)!;

describe('container flavours', () => {
  it('the trtllm image has the TensorRT-LLM and Python backends and no ONNX Runtime; py3 has no LLM backend', () => {
    const r = releaseNamed('24.11');
    expect(flavourHas(flavour('trtllm-python-py3'), 'onnxruntime', r)).toBe(false);
    expect(flavourHas(flavour('trtllm-python-py3'), 'tensorrtllm', r)).toBe(true);
    expect(flavourHas(flavour('trtllm-python-py3'), 'python', r)).toBe(true);
    expect(flavourHas(flavour('py3'), 'tensorrtllm', r)).toBe(false);
    expect(flavourHas(flavour('py3'), 'onnxruntime', r)).toBe(true);
    expect(flavourHas(flavour('vllm-python-py3'), 'vllm', r)).toBe(true);
    expect(flavourHas(flavour('py3-sdk'), 'python', r)).toBe(false);
    // A backend of the user's own: no image rules it out.
    expect(flavourHas(flavour('trtllm-python-py3'), 'mine', r)).toBeUndefined();
    expect(flavoursWith('onnxruntime', r).map((f) => f.tag)).toEqual(['py3']);
  });

  it('the tf2-python-py3 image: in 25.02 (with py3, the TensorFlow backend), none in 25.03', () => {
    expect(flavourHas(flavour('py3'), 'tensorflow', releaseNamed('25.02'))).toBe(true);
    expect(flavoursWith('tensorflow', releaseNamed('25.02')).map((f) => f.tag)).toEqual(['py3', 'tf2-python-py3']);
    expect(flavoursWith('tensorflow', releaseNamed('25.03')).map((f) => f.tag)).toEqual(['py3']);
    expect(parseTarget('25.02-tf2-python-py3').flavour?.tag).toBe('tf2-python-py3');
    expect(() => parseTarget('nvcr.io/nvidia/tritonserver:25.03-tf2-python-py3')).toThrow(TargetError);
    expect(() => parseTarget('25.03-tf2-python-py3')).toThrow('NVIDIA published no 25.03-tf2-python-py3 image: tf2-python-py3 images exist before 25.03');
  });

  it('every flavour the issue names is one tritonc reads from an image tag', () => {
    for (const tag of ['py3', 'pyt-python-py3', 'trtllm-python-py3', 'vllm-python-py3', 'py3-igpu'])
      expect(parseTarget(`nvcr.io/nvidia/tritonserver:24.11-${tag}`).flavour?.tag).toBe(tag);
    // The SDK and build-base images serve no model: a target naming one is a mix-up, said so.
    expect(() => parseTarget('nvcr.io/nvidia/tritonserver:24.11-py3-sdk')).toThrow(
      "24.11-py3-sdk is the client SDK (perf_analyzer, the client libraries, no tritonserver): no model is served from it; give the server's image, e.g. nvcr.io/nvidia/tritonserver:24.11-py3",
    );
    expect(() => parseTarget('24.11-py3-min')).toThrow(TargetError);
  });
});

describe('the LLM backends each release bundles', () => {
  it('TensorRT-LLM of each trtllm image: 24.10 0.14.0, 24.11 0.15.0, 25.04 0.18.2, 25.05 0.19.0; 26.08 as 26.07', () => {
    expect(trtllmVersionIn(releaseNamed('24.05'))).toBe('0.9.0');
    expect(trtllmVersionIn(releaseNamed('24.10'))).toBe('0.14.0');
    expect(trtllmVersionIn(releaseNamed('24.11'))).toBe('0.15.0');
    expect(trtllmVersionIn(releaseNamed('25.04'))).toBe('0.18.2');
    expect(trtllmVersionIn(releaseNamed('25.05'))).toBe('0.19.0');
    expect(trtllmVersionIn(releaseNamed('25.07'))).toBe('0.20.0');
    expect(trtllmVersionIn(releaseNamed('26.07'))).toBe('1.2.1');
    expect(trtllmVersionIn(releaseNamed('26.08'))).toBe('1.2.1');
  });

  it('vLLM of each vllm image, and the engine-argument list tritonc has for it', () => {
    expect(vllmVersionIn(releaseNamed('24.10'))).toBe('0.5.5');
    expect(vllmVersionIn(releaseNamed('25.08'))).toBe('0.9.2');
    expect(vllmVersionIn(releaseNamed('25.09'))).toBe('0.10.1.1');
    expect(vllmListIn(releaseNamed('25.09'))).toBe('0.10.1.1');
    expect(vllmListIn(releaseNamed('25.10'))).toBeUndefined(); // 0.10.2: no list
    expect(vllmListIn(releaseNamed('26.04'))).toBe('0.19.x');
    expect(vllmListIn(releaseNamed('26.08'))).toBeUndefined();
  });
});

describe('--allow-client-shm', () => {
  it('off by default from 26.04 (r26.04 has the flag, r26.03 none)', () => {
    expect(clientShmNeedsOptIn(releaseNamed('26.03'))).toBe(false);
    expect(clientShmNeedsOptIn(releaseNamed('26.04'))).toBe(true);
    expect(clientShmNeedsOptIn(releaseNamed('26.08'))).toBe(true);
    expect(CLIENT_SHM_DISABLED).toContain('--allow-client-shm=true');
  });
});

describe('RELEASE_CHANGES', () => {
  it('lists these facts, so a move from 24.11 to 25.05 names the guided-decoding keys and a move from 26.03 to 26.04 client shared memory', () => {
    const up = changesBetween(RELEASE_CHANGES, releaseNamed('24.11'), releaseNamed('25.05')).map((c) => `${c.direction} ${c.change.area}: ${c.change.what}`);
    expect(up).toContain(
      'gained tensorrtllm: the tensorrtllm backend (TensorRT-LLM 0.19.0 on) requires parameter "guided_decoding_backend" and fails the load without it',
    );
    expect(up).toContain('gained tensorrtllm: the trtllm-python-py3 image bundles TensorRT-LLM 0.19.0');
    expect(up).toContain('lost tensorrtllm: the trtllm-python-py3 image bundles TensorRT-LLM 0.15.0');
    const shm = changesBetween(RELEASE_CHANGES, releaseNamed('26.03'), releaseNamed('26.04')).filter((c) => c.change.area === 'server');
    expect(shm.map((c) => c.direction)).toEqual(['gained']);
    const tf = changesBetween(RELEASE_CHANGES, releaseNamed('25.02'), releaseNamed('25.03')).filter((c) => c.change.area === 'containers');
    expect(tf.map((c) => c.direction)).toEqual(['lost']);
    // Each of these facts cites the branch or tag it was read at.
    for (const c of RELEASE_CHANGES.filter((x) => ['containers', 'tensorrtllm', 'vllm'].includes(x.area) || x.what.includes('--allow-client-shm')))
      expect(c.source).toMatch(/@ (r\d\d\.\d\d|v\d)/);
  });
});
