// watch --triton-version: the watcher judges against the release named, as lint does. A TensorRT-LLM
// config without the guided-decoding keys (read from TensorRT-LLM 0.19.0 on) is clean for the 24.11
// trtllm image (0.15.0) and an error for the newest release's.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runWatch } from '../../src/cli/watch-run.js';
import type { CliIO } from '../../src/cli/io.js';
import { tempDir } from '../support/cli.js';

const CONFIG = `backend: "tensorrtllm"
max_batch_size: 8
parameters { key: "gpt_model_type" value: { string_value: "inflight_fused_batching" } }
parameters { key: "gpt_model_path" value: { string_value: "/engines/llava" } }
`;

async function firstRun(tritonVersion: string | undefined): Promise<{ messageId: string }[]> {
  const repo = tempDir();
  mkdirSync(join(repo, 'tensorrt_llm', '1'), { recursive: true });
  writeFileSync(join(repo, 'tensorrt_llm', 'config.pbtxt'), CONFIG);
  let out = '';
  const io: CliIO = {
    stdout: (t) => void (out += t),
    stderr: (t) => void (out += t),
    readStdin: async () => '',
    stdinIsTTY: true,
    stdoutIsTTY: false,
    env: {},
    cwd: repo,
  };
  let stop!: () => void;
  const stopped = new Promise<void>((r) => (stop = r));
  const running = runWatch({ repo: '.', format: 'json', ...(tritonVersion ? { tritonVersion } : {}) }, io, stopped);
  for (let i = 0; i < 400 && !out.includes('\n'); i++) await new Promise((r) => setTimeout(r, 25));
  stop();
  expect(await running).toBe(0);
  const first = JSON.parse(out.split('\n')[0]!) as { results: { messages: { messageId: string; ruleId: string }[] }[] };
  return first.results.flatMap((r) => r.messages).filter((m) => m.ruleId === 'tensorrtllm-parameters');
}

describe('tritonc watch --triton-version', () => {
  it('24.11-trtllm-python-py3: no guided-decoding key required; the newest release: required', async () => {
    expect(await firstRun('24.11-trtllm-python-py3')).toEqual([]);
    expect((await firstRun(undefined)).map((m) => m.messageId)).toEqual(['missingRequiredSince', 'missingRequiredSince', 'missingRequiredSince']);
  });
});
