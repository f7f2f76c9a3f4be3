// `tritonc releases [FROM [TO]]`: the Triton releases tritonc knows, or what changes between two of
// them (TO defaults to the newest), from the same facts its verdicts read.
import { defineCommand } from './command.js';
import { EXIT, UsageError } from './errors.js';
import { RELEASE_CHANGES } from '../triton/releases/index.js';
import { RELEASES, holdsIn } from '../triton/releases/catalog.js';
import { imageBackends } from '../triton/releases/flavours.js';
import { backendRecord } from '../triton/backend-records.js';
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

/** Between two images (a flavour named on either side): NVIDIA's backends one has and the other lacks. */
function imageChange(from: TritonTarget, to: TritonTarget): string {
  const backends = (t: TritonTarget): string[] => imageBackends(t.flavour, t.release, (b) => holdsIn(backendRecord(b)?.releases, t.release));
  const [before, after] = [backends(from), backends(to)];
  const gained = after.filter((b) => !before.includes(b));
  const lost = before.filter((b) => !after.includes(b));
  const image = (t: TritonTarget): string => `${t.release.container}-${t.flavour?.tag ?? 'py3'}`;
  let out = `\nimage ${image(from)} -> ${image(to)}: NVIDIA's backends ${after.length ? after.join(', ') : 'none'}\n`;
  for (const b of gained) out += `  + the ${b} backend\n`;
  for (const b of lost) out += `  - the ${b} backend: models on it do not load in ${image(to)}\n`;
  if (!gained.length && !lost.length) out += '  the same backends\n';
  return out;
}

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
    if (from.flavour || to.flavour) io.stdout(imageChange(from, to));
    return EXIT.ok;
  },
});
