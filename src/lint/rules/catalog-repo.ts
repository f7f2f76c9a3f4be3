// The repository-layout, ensemble, accelerator and auto-complete rules: ensembles in themselves and
// against the models they run, ONNX Runtime accelerators and parameters, version directories and
// model files, and what Triton's auto-complete changes behind a config's back.
import type { Rule } from '../rule.js';
import { accelerators } from './correctness/accelerators.js';
import { ensembleConfig } from './correctness/ensemble-config.js';
import { ensembleModels } from './correctness/ensemble-models.js';
import { versionDirs } from './correctness/version-dirs.js';
import { autocompleteSurprises } from './suspicious/autocomplete-surprises.js';

export const repoRules: Rule[] = [ensembleConfig, ensembleModels, accelerators, versionDirs, autocompleteSurprises];
