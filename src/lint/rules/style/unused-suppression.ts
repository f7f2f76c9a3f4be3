// A suppression comment that suppresses nothing: left over after a fix, it would hide the next real
// problem on that line. Off by default (opt in with "unused-suppression": "warn"); reported by the engine.
import { defineModelRule } from '../../rule.js';

export const unusedSuppression = defineModelRule({
  meta: {
    id: 'unused-suppression',
    category: 'style',
    defaultSeverity: 'off',
    requiresModel: false,
    engine: true,
    description: 'Suppression comments should suppress something',
    prevents: [],
    messages: {
      unusedRule: "nothing to suppress: '{{id}}' reports no problem here; remove it from the comment",
      unused: 'nothing to suppress here; remove the comment',
    },
  },
  check() {
    // Reported by the engine after every rule has run.
  },
});
