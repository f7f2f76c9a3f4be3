import { testRule } from '../support/rule-tester.js';

const IO = 'backend: "onnxruntime"\nmax_batch_size: 8\n';
const inResnet = (config: string): { files: Record<string, string>; targets: string[] } => ({ files: { 'resnet/config.pbtxt': config }, targets: ['resnet'] });

testRule('name-matches-directory', {
  valid: [
    { name: 'name equal to the directory', ...inResnet(`name: "resnet"\n${IO}`) },
    {
      name: "a directory name holding '..', for 26.02 (no model name check before 26.03)",
      files: { 'a..b/config.pbtxt': IO },
      targets: ['a..b'],
      settings: { triton: '26.02' },
    },
    {
      name: "a directory name holding '..', for 26.04 (only '..' itself is path traversal)",
      files: { 'a..b/config.pbtxt': IO },
      targets: ['a..b'],
      settings: { triton: '26.04' },
    },
    { name: 'no name: Triton fills it from the directory', ...inResnet(IO) },
    { name: 'an empty name: Triton fills it from the directory', ...inResnet(`name: ""\n${IO}`) },
    {
      name: 'a dotted custom-backend name equal to the directory',
      files: { 'model.identity/config.pbtxt': 'name: "model.identity"\n' },
      targets: ['model.identity'],
    },
  ],
  invalid: [
    {
      name: "a directory name holding '..', for 26.03: a load request for it is refused (relaxed in 26.04)",
      files: { 'a..b/config.pbtxt': IO },
      targets: ['a..b'],
      settings: { triton: '26.03' },
      errors: [
        {
          messageId: 'directoryNameTraversal',
          severity: 'warning',
          data: { shown: '"a..b"', dir: 'a..b', release: '26.03' },
        },
      ],
    },
    {
      name: 'a blank directory name, for 26.04: the trimmed name is empty',
      files: { ' /config.pbtxt': IO },
      targets: [' '],
      settings: { triton: '26.04' },
      errors: [{ messageId: 'directoryNameEmpty', data: { release: '26.04' } }],
    },
    {
      name: 'a blank directory name, for 26.03: only whitespace',
      files: { ' /config.pbtxt': IO },
      targets: [' '],
      settings: { triton: '26.03' },
      errors: [{ messageId: 'directoryNameBlank', data: { release: '26.03' } }],
    },
    {
      name: 'a path as the name, for 26.02: a plain mismatch (no model name check before 26.03)',
      ...inResnet(`name: "../resnet"\n${IO}`),
      settings: { triton: '26.02' },
      errors: [{ messageId: 'nameMismatch', data: { name: '../resnet', release: '26.02' } }],
    },
    {
      name: 'another name: points at the name; the fix writes the directory name',
      ...inResnet(`name: "resnet50"\n${IO}`),
      errors: [
        {
          messageId: 'nameMismatch',
          severity: 'error',
          line: 1,
          token: '"resnet50"',
          path: ['name'],
          data: { name: 'resnet50', directory: 'resnet', dir: 'resnet', quotedDir: '"resnet"', shown: '"resnet50"', release: '26.08' },
        },
      ],
      output: `name: "resnet"\n${IO}`,
    },
    {
      name: 'a path as the name: path traversal (no rename advice)',
      ...inResnet(`name: "../resnet"\n${IO}`),
      errors: [{ messageId: 'namePathTraversal', data: { name: '../resnet', directory: 'resnet' } }],
      output: `name: "resnet"\n${IO}`,
    },
    {
      name: "'..' as the name: path traversal",
      ...inResnet(`name: ".."\n${IO}`),
      errors: [{ messageId: 'namePathTraversal', data: { name: '..' } }],
    },
    {
      name: 'a blank name is not an empty one',
      ...inResnet(`name: "  "\n${IO}`),
      errors: [{ messageId: 'nameBlank', data: { name: '  ', directory: 'resnet' } }],
    },
    {
      name: 'spaces around the name',
      ...inResnet(`name: "resnet "\n${IO}`),
      errors: [{ messageId: 'nameSpacesAround', data: { name: 'resnet ', directory: 'resnet' } }],
    },
    {
      name: 'names are case-sensitive',
      ...inResnet(`name: "ResNet"\n${IO}`),
      errors: [{ messageId: 'nameCaseDiffers', data: { name: 'ResNet', directory: 'resnet' } }],
    },
    {
      name: 'a custom config (configs/<name>.pbtxt) is checked against the model directory too',
      files: { 'resnet/config.pbtxt': `name: "resnet"\n${IO}`, 'resnet/configs/gpu.pbtxt': `name: "resnet_gpu"\n${IO}` },
      targets: ['resnet'],
      errors: [{ messageId: 'nameMismatch', file: 'resnet/configs/gpu.pbtxt', token: '"resnet_gpu"', data: { name: 'resnet_gpu', directory: 'resnet' } }],
    },
  ],
});
