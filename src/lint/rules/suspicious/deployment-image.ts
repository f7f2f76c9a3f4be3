// A deployment's image is the Triton release and flavour its server runs: tritonc judges the
// repository against the release its tag names (triton/releases/image-target.ts), and says so where
// the tag names none it knows, and where the image lacks a backend the served models need (the
// flavours' backends: triton/releases/flavours.ts).
import { defineDeploymentRule } from '../../rule.js';
import { RELEASES, NEWEST_RELEASE, holdsIn } from '../../../triton/releases/catalog.js';
import { imageRelease } from '../../../triton/releases/image-target.js';
import { flavourHas, flavoursWith } from '../../../triton/releases/flavours.js';
import { ENSEMBLE_PLATFORM, backendRecord } from '../../../triton/backend-records.js';
import { settledBackend } from '../../backend.js';

const KNOWN = `${RELEASES[0]!.container} to ${NEWEST_RELEASE.container}`;

const messages = {
  noImage:
    'the container names no image, so the Triton release it runs is not known; tritonc judged the repository as Triton {{judged}}; set image: nvcr.io/nvidia/tritonserver:<release>-py3',
  noTag:
    'the image {{image}} has no tag, so each pod runs whatever :latest is when it starts; tritonc judged the repository as Triton {{judged}}; pin the release you tested, e.g. {{image}}:{{judged}}-py3',
  digestOnly:
    'the image {{image}} is pinned by digest alone, which names no Triton release; tritonc judged the repository as Triton {{judged}}; keep the tag before the digest (tritonserver:24.10-py3@sha256:...) or say the release with --triton-version',
  notReleaseTag:
    "the tag {{tag}} of {{image}} is not one of NVIDIA's (<YY.MM>-<flavour>), so the Triton release it runs is not known; tritonc judged the repository as Triton {{judged}}; say which release the image is built from with --triton-version",
  unknownRelease: `the image {{image}} runs Triton {{release}}, a release tritonc does not know (it knows ${KNOWN}); tritonc judged the repository as Triton {{judged}}; run a release from ${KNOWN}, or say the nearest with --triton-version`,
  unknownFlavour:
    'the tag {{tag}} of {{image}} is no tritonserver image NVIDIA published, so the image cannot be pulled; use {{release}}-py3, or another flavour of {{release}}',
  backendMissing:
    'the image {{image}} has no {{backend}} backend, which {{models}} need{{s}}, so Triton refuses {{them}} ("unable to find backend library for backend \'{{backend}}\', try specifying runtime on the model configuration."); run {{others}}',
} as const;

export const deploymentImage = defineDeploymentRule({
  meta: {
    id: 'deployment-image',
    category: 'suspicious',
    defaultSeverity: 'warning',
    requiresModel: false,
    description: "A deployment's image must name the Triton release it runs, and have the backends its models need",
    prevents: ["unable to find backend library for backend '<backend>', try specifying runtime on the model configuration."],
    messages,
  },
  check(ctx) {
    const server = ctx.deployment.server;
    const judged = ctx.settings.server.target.release.container;
    if (!server.image) {
      ctx.report({ at: server.at, messageId: 'noImage', data: { judged } });
      return;
    }
    const image = server.image.value;
    const at = server.image.at;
    const r = imageRelease(image);
    if (r.kind === 'noTag') ctx.report({ at, messageId: 'noTag', data: { image, judged } });
    else if (r.kind === 'digestOnly') ctx.report({ at, messageId: 'digestOnly', data: { image, judged } });
    else if (r.kind === 'notReleaseTag') ctx.report({ at, messageId: 'notReleaseTag', data: { image, tag: r.tag, judged } });
    else if (r.kind === 'unknownRelease') ctx.report({ at, messageId: 'unknownRelease', data: { image, release: r.release, judged } });
    else if (r.kind === 'unknownFlavour') {
      ctx.report({ at, severity: 'error', messageId: 'unknownFlavour', data: { image, tag: r.tag, release: r.tag.slice(0, 5) } });
    } else if (r.target.flavour) {
      // The backends the models need that the image lacks, by backend.
      const target = r.target;
      const flavour = target.flavour!;
      const lacking = new Map<string, string[]>();
      for (const model of ctx.loaded) {
        const config = model.config;
        if (!config) continue;
        const settled = settledBackend({ config, model });
        const backend = settled.backend;
        if (settled.unknown || !backend || settled.platform === ENSEMBLE_PLATFORM || settled.config.runtime) continue;
        if (!holdsIn(backendRecord(backend)?.releases, target.release)) continue;
        if (flavourHas(flavour, backend, target.release) !== false) continue;
        lacking.set(backend, [...(lacking.get(backend) ?? []), model.name]);
      }
      for (const [backend, models] of lacking) {
        const base = image.slice(0, image.lastIndexOf(':'));
        const others = flavoursWith(backend, target.release).map((f) => `${base}:${target.release.container}-${f.tag}`);
        ctx.report({
          at,
          severity: 'error',
          messageId: 'backendMissing',
          data: {
            image,
            backend,
            models: models.join(', '),
            s: models.length === 1 ? 's' : '',
            them: models.length === 1 ? 'it' : 'them',
            others: others.join(' or '),
          },
        });
      }
    }
  },
});
