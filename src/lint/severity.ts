// How a finding's severity follows the rule's configured level (see rule.ts, "Severity").
import type { Severity } from '../diagnostics.js';
import type { RuleLevel } from './rule.js';

const RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };
const BY_RANK: Severity[] = ['info', 'warning', 'error'];

/**
 * The severity to show for a finding the rule reported as `natural`, when the rule's default level is
 * `defaultLevel` and the user set it to `configured` (never 'off' here: off rules do not run).
 */
export function effectiveSeverity(natural: Severity, defaultLevel: RuleLevel, configured: Severity): Severity {
  if (defaultLevel === 'off') return configured; // an opt-in rule: the user's level is the level
  const shifted = RANK[natural] + RANK[configured] - RANK[defaultLevel];
  return BY_RANK[Math.max(0, Math.min(2, shifted))]!;
}
