// --model-control-mode=poll reloads whatever the repository holds at each poll, with no
// synchronization with what writes it (server docs/user_guide/model_management.md, "Model Control Mode
// POLL": "Triton could observe partial and incomplete changes that lead to unexpected behavior. For
// this reason POLL mode is not recommended for use in production environments."). A deployment that
// syncs configs and weights into the repository one object at a time is exactly that.
import { defineDeploymentRule } from '../../rule.js';

const messages = {
  pollMode:
    'the server polls its repository every {{seconds}} s and loads what it finds, with no synchronization with what writes it, so a sync caught half-way loads a new config with old weights, or a version without its file; NVIDIA\'s docs say POLL mode "is not recommended for use in production environments": use --model-control-mode=explicit and load models through the repository API once a sync is complete',
} as const;

export const deploymentPoll = defineDeploymentRule({
  meta: {
    id: 'deployment-poll',
    category: 'suspicious',
    defaultSeverity: 'warning',
    requiresModel: false,
    description: 'A production deployment should not poll its repository',
    prevents: [],
    messages,
  },
  check(ctx) {
    const line = ctx.deployment.server.commandLine;
    if (line.controlMode !== 'poll' || !line.controlModeOption) return;
    const word = ctx.deployment.server.words[line.controlModeOption.valueWord];
    ctx.report({ at: word?.at ?? ctx.deployment.server.at, messageId: 'pollMode', data: { seconds: line.pollSeconds } });
  },
});
