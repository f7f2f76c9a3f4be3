// ensemble_scheduling.max_inflight_requests kept its name and type when its meaning changed: from 26.04
// core shares one limiter per step among all of the ensemble's requests (core a02b0c0, "Enforce
// `max_inflight_requests` as a shared limit across ensemble requests"); from 25.11 to 26.03 each
// ensemble request had its own (triton/schema-releases.ts). A limit sized for one request then throttles
// every client together, without a word in the log. Reported for the releases with the shared meaning,
// so a run over several releases (--triton-version 26.03,26.04) names the ones where it changed.
import { defineModelRule } from '../../rule.js';
import { ensembleLimitShared } from '../../../triton/schema-releases.js';

export const ensembleInflightLimit = defineModelRule({
  meta: {
    id: 'ensemble-inflight-limit',
    category: 'suspicious',
    defaultSeverity: 'info',
    requiresModel: false,
    description: "An ensemble's max_inflight_requests is one limit shared by all of its requests from Triton 26.04 on",
    prevents: [],
    messages: {
      sharedLimit:
        "max_inflight_requests {{limit}} caps the in-flight requests of each step across all of this ensemble's requests together in Triton {{release}} (from 26.04 on; from 25.11 to 26.03 each ensemble request had its own cap of {{limit}}); if {{limit}} was sized for one request, multiply it by the requests you expect at once, or remove it for no cap",
    },
  },
  check(ctx) {
    const limit = ctx.config.ensemble_scheduling?.max_inflight_requests;
    const release = ctx.settings.server.target.release;
    // 0 (the default) is no limit in every release.
    if (!limit || !ensembleLimitShared(release)) return;
    ctx.report({ path: ['ensemble_scheduling', 'max_inflight_requests'], messageId: 'sharedLimit', data: { limit, release: release.container } });
  },
});
