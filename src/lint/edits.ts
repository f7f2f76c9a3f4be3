// Text edits in a config, built from where its syntax tree says a value is written: the fixes that
// rules attach to findings (applied by `lint --fix` and editors' quick fixes). An edit exists only
// where the value is written at exactly one place; otherwise the finding carries no fix.
import type { TextEdit } from '../diagnostics.js';
import { removalOf } from '../config/text-edits.js';
import type { ConfigDocument } from '../config/document.js';
import type { ConfigEdits } from './rule.js';

export function configEdits(doc: ConfigDocument): ConfigEdits {
  return {
    replaceValue(path, text) {
      const loc = doc.locateExact(path);
      // A repeated field's location is its name; its elements are replaced one by one, or the field whole.
      return loc?.field && loc.value !== loc.name ? { range: loc.value, text } : undefined;
    },
    replaceField(path, text) {
      const loc = doc.locateExact(path);
      return loc?.field ? { range: loc.field, text } : undefined;
    },
    removeField(path) {
      const loc = doc.locateExact(path);
      return loc?.field ? removalOf(doc.text, loc.field) : undefined;
    },
  };
}

/** A fix whose edits all exist, or none. */
export function completeFix(
  fix: { description: string; edits: readonly (TextEdit | undefined)[] } | undefined,
): { description: string; edits: TextEdit[] } | undefined {
  if (!fix || !fix.edits.length || fix.edits.some((e) => e === undefined)) return undefined;
  return { description: fix.description, edits: fix.edits as TextEdit[] };
}
