// The configs of test/fixtures/configs/: written for these tests, one per way real repositories use
// the format (each backend, ensembles, sequence batching, queues, warmup, older spellings), with
// comments in the places formatters lose them. Each is valid: Triton core accepts it as written.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DIR = fileURLToPath(new URL('../fixtures/configs/', import.meta.url));

export interface FixtureConfig {
  /** The model name: the file name without .pbtxt, which is also the config's `name`. */
  name: string;
  file: string;
  text: string;
}

export const FIXTURE_CONFIGS: FixtureConfig[] = readdirSync(DIR)
  .filter((f) => f.endsWith('.pbtxt'))
  .sort()
  .map((f) => ({ name: f.slice(0, -'.pbtxt'.length), file: `${DIR}${f}`, text: readFileSync(`${DIR}${f}`, 'utf8') }));
