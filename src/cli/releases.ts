// `tritonc releases [FROM [TO]]`: the Triton releases tritonc knows, or what changes between two of
// them (TO defaults to the newest), from the same facts its verdicts read.
import { defineCommand } from './command.js';
import { EXIT, UsageError } from './errors.js';
import { RELEASE_CHANGES } from '../triton/releases/index.js';
import { RELEASES } from '../triton/releases/catalog.js';
import { DEFAULT_TARGET, TargetError, parseTarget, type TritonTarget } from '../triton/releases/target.js';
import { formatChangesBetween } from '../triton/releases/notes.js';

const targetOf = (text: string): TritonTarget => {
  try {
    return parseTarget(text);
  } catch (e) {
    if (e instanceof TargetError) throw new UsageError(e.message);
    throw e;
  }
};

export const releasesCommand = defineCommand({
  command: 'releases [from] [to]',
  describe: `List the Triton releases tritonc judges against, or what changes between two (to: default ${DEFAULT_TARGET.named}, the newest)`,
  builder: (y) =>
    y
      .positional('from', { type: 'string', describe: 'A release (24.10), a server version (2.51.0) or an image' })
      .positional('to', { type: 'string', describe: 'Another; default the newest release tritonc knows' }),
  run: async (a, io) => {
    if (a.from === undefined) {
      io.stdout(`${RELEASES.map((r) => `${r.container}  ${r.server}${r === DEFAULT_TARGET.release ? '  (default)' : ''}`).join('\n')}\n`);
      return EXIT.ok;
    }
    const from = targetOf(a.from);
    const to = a.to === undefined ? DEFAULT_TARGET : targetOf(a.to);
    io.stdout(formatChangesBetween(RELEASE_CHANGES, from.release, to.release));
    return EXIT.ok;
  },
});
