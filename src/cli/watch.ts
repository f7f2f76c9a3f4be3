// `tritonc watch [REPO] [--generate] [--format stylish|json]`: a full lint, then a fresh report after
// every change, until Ctrl-C.
import { defineCommand } from './command.js';
import { watchFlags } from './watch-flags.js';

export const watchCommand = defineCommand({
  command: 'watch [repo]',
  describe: 'Lint a repository, then again after every change (and regenerate configs with --generate)',
  builder: watchFlags,
  // The watcher (chokidar) loads only when watch runs.
  run: async (a, io) => (await import('./watch-run.js')).runWatch(a, io),
});
