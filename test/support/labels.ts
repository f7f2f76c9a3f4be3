// Labels files beside a config, as the repositories that hold these configs keep them.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseConfig } from '../../src/config/document.js';

/**
 * The labels files a config names (output label_filename), written into its model directory: the
 * repositories keep them beside the config (server docs/examples/model_repository/densenet_onnx holds
 * densenet_labels.txt, which core's Model::Init reads at load); the corpus keeps only the configs.
 */
export function placeLabelFiles(modelDir: string, configText: string): void {
  for (const o of parseConfig(configText).value.output ?? []) {
    if (!o.label_filename || o.label_filename.includes('..')) continue;
    const file = join(modelDir, o.label_filename.replace(/^\/+/, ''));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, 'label0\nlabel1\n');
  }
}

/** Whether a config names labels files (then it is deployed in a copy that holds them). */
export const namesLabelFiles = (configText: string): boolean => (parseConfig(configText).value.output ?? []).some((o) => o.label_filename);
