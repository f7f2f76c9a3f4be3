// The ONNX Runtime each Triton release bundles, what that ONNX Runtime loads (the newest ONNX IR
// version and opset per domain), and what the ONNX Runtime backend gained between releases.
import { holdsIn, RELEASES, releaseIndex, valueIn, type ByRelease, type Releases, type TritonRelease } from '../../releases/catalog.js';
import type { ReleaseChange } from '../../releases/changes.js';
import type { ModelSignature } from '../../../model-file/signature.js';

const COMPATIBILITY = 'triton-inference-server/server docs/introduction/compatibility.md "ONNX Runtime Versions" at r26.08';

/**
 * The ONNX Runtime of each release, where it changed. The compatibility table is cross-checked with
 * build.py's TRITON_VERSION_MAP / DEFAULT_TRITON_VERSION_MAP "ort_version" on each branch; they agree
 * except at 24.08, where build.py says 1.19.0 and the table 1.18.1 (both load the same IR and opsets).
 */
export const ORT_VERSIONS: readonly ByRelease<string>[] = Object.freeze([
  { since: '24.05', value: '1.18.0', source: COMPATIBILITY },
  { since: '24.07', value: '1.18.1', source: COMPATIBILITY },
  { since: '24.09', value: '1.19.2', source: COMPATIBILITY },
  { since: '24.12', value: '1.20.1', source: COMPATIBILITY },
  { since: '25.03', value: '1.21.0', source: COMPATIBILITY },
  { since: '25.05', value: '1.22.0', source: COMPATIBILITY },
  { since: '25.08', value: '1.23.0+1d1712fdaf', source: COMPATIBILITY },
  { since: '25.09', value: '1.23.0', source: COMPATIBILITY },
  { since: '25.10', value: '1.23.1', source: COMPATIBILITY },
  { since: '25.11', value: '1.23.2', source: COMPATIBILITY },
  { since: '26.02', value: '1.24.1', source: COMPATIBILITY },
  { since: '26.03', value: '1.24.2', source: COMPATIBILITY },
  { since: '26.04', value: '1.24.4', source: COMPATIBILITY },
  { since: '26.07', value: '1.27.0', source: COMPATIBILITY },
  { since: '26.08', value: '1.28.0', source: COMPATIBILITY },
]);

/** What one ONNX Runtime loads. */
export interface OrtLimits {
  /** The newest model IR version (onnxruntime/core/graph/model.cc: ONNX_NAMESPACE::Version::IR_VERSION). */
  readonly irVersion: number;
  /** The newest released opset of each domain it knows ('' is ai.onnx), past which it refuses the model. */
  readonly opsets: Readonly<Record<string, number>>;
}

// Read from each ONNX Runtime itself: its PyPI wheel (the same library Triton links) loading a model
// stamped with one IR version or opset more than the last it accepts. Model::Model (core/graph/model.cc)
// throws "Unsupported model IR version: N, max supported IR version: M"; model_load_utils.h
// ValidateOpsetForDomain throws for an opset past the domain's last released one unless the
// environment sets ALLOW_RELEASED_ONNX_OPSET_ONLY=0, which Triton's containers do not. ai.onnx.ml is 5
// in all of them.
const LIMITS = (irVersion: number, onnx: number): OrtLimits => Object.freeze({ irVersion, opsets: Object.freeze({ '': onnx, 'ai.onnx.ml': 5 }) });
const ORT_LIMITS: Readonly<Record<string, OrtLimits>> = Object.freeze({
  '1.18.0': LIMITS(10, 21),
  '1.18.1': LIMITS(10, 21),
  '1.19.2': LIMITS(10, 21),
  '1.20.1': LIMITS(10, 21),
  '1.21.0': LIMITS(10, 22),
  '1.22.0': LIMITS(10, 22),
  // 25.08's build of 1.23.0 plus one commit: the 1.23.0 wheel's limits.
  '1.23.0+1d1712fdaf': LIMITS(11, 23),
  '1.23.0': LIMITS(11, 23),
  '1.23.1': LIMITS(11, 23),
  '1.23.2': LIMITS(11, 23),
  '1.24.1': LIMITS(13, 25),
  '1.24.2': LIMITS(13, 25),
  '1.24.4': LIMITS(13, 25),
  '1.27.0': LIMITS(13, 26),
  '1.28.0': LIMITS(13, 26),
});
const LIMITS_SOURCE = "onnxruntime core/graph/model.cc and model_load_utils.h, run from each release's PyPI wheel";

/** The ONNX Runtime a release bundles and what it loads. */
export interface BundledOrt {
  readonly version: string;
  readonly limits: OrtLimits;
}

/** The ONNX Runtime `release` bundles. */
export function ortIn(release: TritonRelease): BundledOrt {
  const version = valueIn(ORT_VERSIONS, release)?.value ?? ORT_VERSIONS[0]!.value;
  return { version, limits: ORT_LIMITS[version]! };
}

/** The newest opset of `domain` the limits allow; undefined for a domain ONNX Runtime does not check. */
function opsetLimit(limits: OrtLimits, domain: string): number | undefined {
  return Object.hasOwn(limits.opsets, domain) ? limits.opsets[domain] : undefined;
}

/** The domain as ONNX Runtime's messages name it ('' is ai.onnx). */
const domainName = (domain: string): string => domain || 'ai.onnx';

/**
 * The first release from `after` on whose ONNX Runtime loads what `loads` accepts, for a message's
 * fix; undefined when none tritonc knows does.
 */
function firstReleaseLoading(loads: (limits: OrtLimits) => boolean, after: TritonRelease): TritonRelease | undefined {
  return RELEASES.slice(releaseIndex(after.container) + 1).find((r) => loads(ortIn(r).limits));
}

/** Why `release`'s ONNX Runtime refuses a model: its IR version, or the first opset past its domain's last release. */
export type OrtRefusal =
  | { kind: 'noOpset' }
  | { kind: 'ir'; irVersion: number; maxIr: number; loadsFrom: TritonRelease | undefined }
  | { kind: 'opset'; domain: string; version: number; max: number; loadsFrom: TritonRelease | undefined };

/**
 * What ONNX Runtime's Model::Model checks, in its order: that there is an opset_import, the IR version, then each opset_import as the
 * file lists it (the first past its domain's last release throws). The domain is looked up as written,
 * so an "ai.onnx" spelled out is not checked there (ValidateOpsetForDomain finds only '').
 */
export function ortRefusal(sig: Pick<ModelSignature, 'irVersion' | 'opsets'>, release: TritonRelease): OrtRefusal | undefined {
  // A model importing no opset at all is refused first, by every ONNX Runtime ("Missing opset in the
  // model.", onnxruntime core/graph/model.cc Model::Model, line 169 of 1.19.2's, before the IR version).
  if (sig.opsets.length === 0) return { kind: 'noOpset' };
  const limits = ortIn(release).limits;
  if (sig.irVersion > limits.irVersion) {
    const loadsFrom = firstReleaseLoading((l) => l.irVersion >= sig.irVersion, release);
    return { kind: 'ir', irVersion: sig.irVersion, maxIr: limits.irVersion, loadsFrom };
  }
  for (const { domain, version } of sig.opsets) {
    const max = opsetLimit(limits, domain);
    if (max === undefined || version <= max) continue;
    const loadsFrom = firstReleaseLoading((l) => (opsetLimit(l, domain) ?? 0) >= version, release);
    return { kind: 'opset', domain: domainName(domain), version, max, loadsFrom };
  }
  return undefined;
}

/** The ONNX Runtime backend maps ONNX BFLOAT16 to TYPE_BF16 (onnxruntime_utils.cc ConvertFromOnnxDataType, ModelConfigDataTypeToOnnxDataType). */
export const ORT_BF16_TENSORS: Releases = Object.freeze({ since: '26.03' });
/** The TensorRT accelerator takes precision_mode BF16 (onnxruntime.cc ModelState::LoadModel: trt_bf16_enable). */
export const TRT_BF16_PRECISION: Releases = Object.freeze({ since: '26.02' });
/** "cuda" is a gpu_execution_accelerator (onnxruntime.cc ModelState::LoadModel, CUDA provider options V2). */
export const ORT_CUDA_ACCELERATOR: Releases = Object.freeze({ since: '24.06' });

/** The model-level parameter session.use_device_allocator_for_initializers (onnxruntime.cc ModelState::ModelState: AddSessionConfigEntry). */
export const ORT_DEVICE_ALLOCATOR_PARAMETER: Releases = Object.freeze({ since: '25.02' });

/** The TensorRT precision modes of `release`'s ONNX Runtime backend. */
export function trtPrecisionModes(release: TritonRelease): string[] {
  return holdsIn(TRT_BF16_PRECISION, release) ? ['FP32', 'FP16', 'BF16', 'INT8'] : ['FP32', 'FP16', 'INT8'];
}

const BACKEND = 'triton-inference-server/onnxruntime_backend';

/** Each stretch of releases with one ONNX Runtime, and with one set of limits, as release changes. */
function stretches<T>(key: (r: TritonRelease) => T, what: (value: T) => string, source: string): ReleaseChange[] {
  const out: ReleaseChange[] = [];
  let start = 0;
  for (let i = 1; i <= RELEASES.length; i++) {
    if (i < RELEASES.length && key(RELEASES[i]!) === key(RELEASES[start]!)) continue;
    const releases: Releases = {
      ...(start > 0 ? { since: RELEASES[start]!.container as Releases['since'] } : {}),
      ...(i < RELEASES.length ? { until: RELEASES[i]!.container as Releases['until'] } : {}),
    };
    out.push({ area: 'onnxruntime', what: what(key(RELEASES[start]!)), releases, source });
    start = i;
  }
  return out;
}

/** Every ONNX Runtime fact that changed between releases, for RELEASE_CHANGES. */
export const ONNXRUNTIME_CHANGES: readonly ReleaseChange[] = Object.freeze([
  ...stretches(
    (r) => ortIn(r).version,
    (v) => `Triton bundles ONNX Runtime ${v}`,
    COMPATIBILITY,
  ),
  ...stretches(
    (r) => {
      const l = ortIn(r).limits;
      return `${l.irVersion}/${l.opsets['']}/${l.opsets['ai.onnx.ml']}`;
    },
    (k) => {
      const [ir, onnx, ml] = k.split('/');
      return `ONNX Runtime loads models up to IR version ${ir}, ai.onnx opset ${onnx} and ai.onnx.ml opset ${ml}`;
    },
    LIMITS_SOURCE,
  ),
  {
    area: 'onnxruntime',
    what: 'the ONNX Runtime backend serves BFLOAT16 tensors as TYPE_BF16 (before, "unsupported datatype TYPE_BF16")',
    releases: ORT_BF16_TENSORS,
    source: `${BACKEND} src/onnxruntime_utils.cc ConvertFromOnnxDataType at r26.03 (absent at r26.02)`,
  },
  {
    area: 'tensorrt',
    what: 'the TensorRT accelerator of the ONNX Runtime backend takes precision_mode BF16 (before, "unsupported precision mode \'BF16\' is requested")',
    releases: TRT_BF16_PRECISION,
    source: `${BACKEND} src/onnxruntime.cc ModelState::LoadModel at r26.02 (absent at r26.01)`,
  },
  {
    area: 'onnxruntime',
    what: 'the ONNX Runtime backend has the "cuda" GPU execution accelerator (before, "unknown Execution Accelerator \'cuda\' is requested")',
    releases: ORT_CUDA_ACCELERATOR,
    source: `${BACKEND} src/onnxruntime.cc ModelState::LoadModel at r24.06 (absent at r24.05)`,
  },
  {
    area: 'onnxruntime',
    what: 'the ONNX Runtime backend reads the parameter session.use_device_allocator_for_initializers (before, it is ignored)',
    releases: ORT_DEVICE_ALLOCATOR_PARAMETER,
    source: `${BACKEND} src/onnxruntime.cc ModelState::ModelState at r25.02 (absent at r25.01)`,
  },
]);
