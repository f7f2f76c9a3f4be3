// One measurement in a fresh process (so peak RSS belongs to that method alone):
//   node bench/onnx-inspect-worker.mjs <method> <model.onnx>
// Prints one JSON line: { method, ok, ms, maxRssMB, error?, detail? }.
// Methods: baseline | reader | reader-sync | decode (readFileSync + onnx-proto decode) | ort.

import fs from 'node:fs';
import { performance } from 'node:perf_hooks';

const [method, file] = process.argv.slice(2);

async function run() {
  switch (method) {
    case 'baseline':
      return 'nothing';
    case 'reader':
    case 'reader-sync': {
      const { readSignature, readSignatureSync } = await import('./.out/onnx-bench-lib.mjs');
      const stats = { reads: 0, bytesRead: 0 };
      const t0 = performance.now();
      const sig = method === 'reader' ? await readSignature(file, { stats }) : readSignatureSync(file, { stats });
      const ms = performance.now() - t0;
      return {
        ms,
        detail: `${sig.inputs.length} in, ${sig.outputs.length} out, ${sig.initializers.count} initializers; ${stats.reads} reads, ${(stats.bytesRead / 1e6).toFixed(2)} MB read`,
      };
    }
    case 'decode': {
      const { default: pkg } = await import('onnx-proto');
      const t0 = performance.now();
      const bytes = fs.readFileSync(file);
      const m = pkg.onnx.ModelProto.decode(bytes);
      const ms = performance.now() - t0;
      return { ms, detail: `${m.graph.input.length} in, ${m.graph.initializer.length} initializers` };
    }
    case 'ort': {
      const { default: ort } = await import('onnxruntime-node');
      const t0 = performance.now();
      const s = await ort.InferenceSession.create(file, { graphOptimizationLevel: 'disabled', logSeverityLevel: 4 });
      const ms = performance.now() - t0;
      const detail = `${s.inputNames.length} in, ${s.outputNames.length} out`;
      await s.release();
      return { ms, detail };
    }
    default:
      throw new Error(`unknown method ${method}`);
  }
}

const line = { method };
try {
  const r = await run();
  Object.assign(line, { ok: true }, typeof r === 'object' ? r : { ms: 0 });
} catch (e) {
  Object.assign(line, {
    ok: false,
    error: String(e?.message ?? e)
      .split('\n')[0]
      .slice(0, 160),
  });
}
line.maxRssMB = Math.round(process.resourceUsage().maxRSS / 1024);
process.stdout.write(`${JSON.stringify(line)}\n`);
