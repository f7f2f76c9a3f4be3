// A suppression comment naming a rule that does not exist: a typo would otherwise silence nothing
// without a word. Reported by the engine (see suppressions.ts); this module gives it an id and docs.
import { defineModelRule } from '../../rule.js';

export const invalidSuppression = defineModelRule({
  meta: {
    id: 'invalid-suppression',
    category: 'suspicious',
    defaultSeverity: 'warning',
    requiresModel: false,
    engine: true,
    description: 'Suppression comments must name existing rules',
    prevents: [],
    messages: {
      unknownRule: "'{{id}}' is not a tritonc rule, so this suppression does nothing",
      unknownRuleDidYouMean: "'{{id}}' is not a tritonc rule, so this suppression does nothing; did you mean '{{suggestion}}'?",
    },
  },
  check() {
    // Reported by the engine after every rule has run.
  },
});
