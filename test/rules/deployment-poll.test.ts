import { testRule } from '../support/rule-tester.js';
import { ORT_MODEL, pod } from './deployment-support.js';

testRule('deployment-poll', {
  valid: [
    { name: 'explicit mode', files: { ...ORT_MODEL, 'd.yaml': pod({ args: ['--model-control-mode=explicit'] }) }, deployment: 'd.yaml' },
    { name: 'the default, none', files: { ...ORT_MODEL, 'd.yaml': pod() }, deployment: 'd.yaml' },
  ],
  invalid: [
    {
      name: 'poll mode, the default interval',
      files: { ...ORT_MODEL, 'd.yaml': pod({ args: ['--model-control-mode', 'POLL'] }) },
      deployment: 'd.yaml',
      errors: [{ messageId: 'pollMode', severity: 'warning', token: '"POLL"', data: { seconds: 15 } }],
    },
    {
      name: 'poll mode in a shell script, its interval read',
      files: {
        ...ORT_MODEL,
        'd.yaml':
          'apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: t\nspec:\n  template:\n    spec:\n      containers:\n        - name: s\n          image: nvcr.io/nvidia/tritonserver:24.10-py3\n          command: ["/bin/sh", "-c"]\n          args:\n            - exec tritonserver --model-repository=/models --model-control-mode=poll --repository-poll-secs=$POLL\n          env:\n            - {name: POLL, value: "60"}\n',
      },
      deployment: 'd.yaml',
      errors: [{ messageId: 'pollMode', line: 13, data: { seconds: 60 } }],
    },
  ],
});
