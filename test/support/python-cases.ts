// Triton's L0_model_config Python cases deployed as its test.sh deploys them: the case's config.pbtxt
// and its model.py in 1/ (the in-tree one, or qa/python_models/auto_complete/model.py), a case without
// config.pbtxt being a repository of its directories. The model.py files are in fixtures/models/python.
import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { locateCorpus } from './corpus-location.js';

// Imported outside test/conformance too (the real-Triton suite): the corpus may be absent, and the
// suites that need it skip themselves (L0 is then '').
const corpus = locateCorpus();
export const L0 = corpus.found ? `${corpus.dir}/triton-inference-server__server/qa/L0_model_config/` : '';
const FIXTURES = join(import.meta.dirname, '../../fixtures/models/python');

/** The model.py test.sh copies into each case (qa/python_models/auto_complete for the ones without their own). */
export function modelPyOf(suite: string, rel: string): string {
  const own = join(FIXTURES, 'L0_model_config', suite, 'python', rel, 'model.py');
  return existsSync(own) ? own : join(FIXTURES, 'auto_complete', 'model.py');
}

/** The case as test.sh deploys it: a model directory, or (no config.pbtxt) a repository of its directories. */
export function deployCase(suite: string, name: string, repo: string): string[] {
  const src = join(L0, suite, 'python', name);
  const models = existsSync(join(src, 'config.pbtxt')) ? [name] : readdirSync(src).map((d) => `${name}/${d}`);
  const dirs: string[] = [];
  for (const rel of models) {
    const dir = join(repo, rel.split('/').at(-1)!);
    mkdirSync(join(dir, '1'), { recursive: true });
    if (existsSync(join(L0, suite, 'python', rel, 'config.pbtxt'))) copyFileSync(join(L0, suite, 'python', rel, 'config.pbtxt'), join(dir, 'config.pbtxt'));
    copyFileSync(modelPyOf(suite, rel), join(dir, '1', 'model.py'));
    dirs.push(dir);
  }
  return dirs;
}
