// What changes between Triton releases, as text: `tritonc releases` and docs/releases.md, both made
// from the facts the verdicts read (triton/releases RELEASE_CHANGES). Pure functions of data.
import { RELEASES, describeReleases, releaseIndex, type TritonRelease } from './catalog.js';
import { changesBetween, type ReleaseChange } from './changes.js';

const sign = (direction: 'gained' | 'lost'): string => (direction === 'gained' ? '+' : '-');

/** The changes a move from one release to another makes, one line each, grouped by area. */
export function formatChangesBetween(changes: readonly ReleaseChange[], from: TritonRelease, to: TritonRelease): string {
  const found = changesBetween(changes, from, to);
  const head = `Triton ${from.container} (${from.server}) -> ${to.container} (${to.server})`;
  if (!found.length) return `${head}: nothing tritonc checks changes\n`;
  // The release where the fact turns on the way from `from` to `to`: where it arrives going up, where
  // it left going down; each line says the releases the fact holds for, true either way.
  const up = releaseIndex(to.container) > releaseIndex(from.container);
  const at = (c: ReleaseChange, direction: 'gained' | 'lost'): string =>
    (up === (direction === 'gained') ? c.releases.since : c.releases.until) ?? c.releases.since ?? c.releases.until ?? '';
  const lines = found
    .map(({ change, direction }) => ({ change, direction, at: at(change, direction) }))
    .sort((a, b) => a.change.area.localeCompare(b.change.area) || (releaseIndex(a.at) - releaseIndex(b.at)) * (up ? 1 : -1));
  let out = `${head}: ${found.length} change${found.length === 1 ? '' : 's'} (+ holds in ${to.container}, - no longer)\n`;
  let area = '';
  for (const l of lines) {
    if (l.change.area !== area) out += `\n${(area = l.change.area)}\n`;
    out += `  ${sign(l.direction)} ${l.change.what} (${describeReleases(l.change.releases)})\n`;
  }
  return out;
}

/** docs/releases.md: each release tritonc knows, with what arrives and what leaves in it. */
export function releasesMarkdown(changes: readonly ReleaseChange[], newest: TritonRelease): string {
  let out = `# Triton releases tritonc judges against

tritonc judges a repository against one Triton release: \`--triton-version\` (a container release such as
\`24.10\`, a server version such as \`2.51.0\`, or an image such as
\`nvcr.io/nvidia/tritonserver:24.11-trtllm-python-py3\`), or \`"triton"\` in \`tritonc.config.json\`. Told
nothing, it judges against the newest release it knows, ${newest.container} (${newest.server}). \`tritonc lint
--triton-version 24.10,26.07\` judges against several at once, each finding naming those it holds for, and
\`tritonc releases 24.10 26.07\` prints what changes between any two.

This page is generated from the facts the verdicts read (\`src/triton/releases/\`, each with the source it
was read from); \`test/docs/releases-doc.test.ts\` keeps it current (\`UPDATE_DOCS=1\` rewrites it). A fact
older than ${RELEASES[0]!.container} holds in every release listed and is not repeated here.

| release | server |
|---|---|
`;
  for (const r of [...RELEASES].reverse()) out += `| ${r.container} | ${r.server} |\n`;
  out += '\n## What each release changes\n';
  for (const r of RELEASES.slice(1)) {
    const arrive = changes.filter((c) => c.releases.since === r.container);
    const leave = changes.filter((c) => c.releases.until === r.container);
    if (!arrive.length && !leave.length) continue;
    out += `\n### ${r.container} (${r.server})\n\n`;
    for (const c of arrive) out += `- + ${c.area}: ${c.what} (${c.source})\n`;
    for (const c of leave) out += `- - ${c.area}: no longer: ${c.what} (${c.source})\n`;
  }
  return out;
}
