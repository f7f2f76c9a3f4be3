// watch's flags, apart from the command: watch.ts declares the command with them, and watch-run.ts
// (loaded only when watch runs) takes them parsed, neither importing the other.
import type { Argv } from 'yargs';
import { GPU_PRESET_NAMES } from '../lint/gpu-presets.js';
import type { FlagsOf } from './command.js';
import { withTritonVersion } from './server-flags.js';

export const watchFlags = (y: Argv) =>
  withTritonVersion(y)
    .positional('repo', { type: 'string', describe: 'The model repository (default: .)' })
    .option('generate', { type: 'boolean', describe: 'Regenerate tritonc-generated configs when their model.onnx changes' })
    .option('format', { choices: ['stylish', 'json'] as const, default: 'stylish' as const, describe: 'stylish, or json: one JSON object per line per run' })
    .option('config', { alias: 'c', type: 'string', describe: 'Settings file to use instead of the nearest tritonc.config.json' })
    .option('configs-only', {
      type: 'boolean',
      describe: 'The model files are provisioned separately, as lint --configs-only (tritonc.lock.json stands in for them)',
    })
    .option('gpu-memory', { type: 'string', describe: `Memory of one GPU: a size (24GiB) or ${GPU_PRESET_NAMES.join(', ')}` })
    .option('color', { type: 'boolean', describe: 'Colour the stylish output' });

/** watch's flags, parsed; those left out take their defaults (tests run the watcher with a few). */
export type WatchCliOptions = Partial<
  Pick<FlagsOf<typeof watchFlags>, 'repo' | 'generate' | 'format' | 'config' | 'gpuMemory' | 'configsOnly' | 'color' | 'tritonVersion'>
>;
