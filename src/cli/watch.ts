// `tritonc watch [REPO] [--generate] [--format stylish|json]`: a full lint, then a fresh report after
// every change, until Ctrl-C.
import { GPU_PRESET_NAMES } from '../lint/gpu-presets.js';
import type { CommandSpec } from './command.js';

export const watchCommand: CommandSpec = {
  command: 'watch [repo]',
  describe: 'Lint a repository, then again after every change (and regenerate configs with --generate)',
  builder: (y) =>
    y
      .positional('repo', { type: 'string', describe: 'The model repository (default: .)' })
      .option('generate', { type: 'boolean', describe: 'Regenerate tritonc-generated configs when their model.onnx changes' })
      .option('format', { choices: ['stylish', 'json'] as const, default: 'stylish', describe: 'stylish, or json: one JSON object per line per run' })
      .option('config', { alias: 'c', type: 'string', describe: 'Settings file to use instead of the nearest tritonc.config.json' })
      .option('configs-only', { type: 'boolean', describe: 'The model files are provisioned separately, as lint --configs-only (tritonc.lock.json stands in for them)' })
      .option('gpu-memory', { type: 'string', describe: `Memory of one GPU: a size (24GiB) or ${GPU_PRESET_NAMES.join(', ')}` })
      .option('color', { type: 'boolean', describe: 'Colour the stylish output' }),
  // The watcher (chokidar) loads only when watch runs.
  run: async (a, io) =>
    (await import('./watch-run.js')).runWatch(
      {
        repo: (a.repo as string | undefined) ?? '.',
        generate: Boolean(a.generate),
        format: (a.format as 'stylish' | 'json') ?? 'stylish',
        config: a.config as string | undefined,
        gpuMemory: a.gpuMemory as string | undefined,
        configsOnly: a.configsOnly as boolean | undefined,
        color: a.color as boolean | undefined,
      },
      io,
    ),
};

