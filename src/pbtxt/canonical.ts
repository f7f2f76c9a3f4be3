// Rewrites a parsed tree into the canonical shape the printer expects, moving comments with the nodes
// they belong to: adjacent occurrences of a repeated field become one list (`dims: 3 dims: 4` ->
// `dims: [ 3, 4 ]`, `input {..} input {..}` -> `input [ {..}, {..} ]`), and a map written as a list
// becomes one entry per key, the way Triton's docs write maps. Field order is never changed.
import type { Comment, DocumentNode, ElementNode, FieldNode, ListNode, MessageNode, ValueNode } from './ast.js';
import { append } from '../util/arrays.js';

export function canonicalTree(doc: DocumentNode): DocumentNode {
  const carry: Comment[] = [];
  const fields = canonicalFields(doc.fields, carry);
  return { ...doc, fields, dangling: [...carry, ...doc.dangling] };
}

/**
 * `carry` holds comments that lost their node (a list's closing comments when the list is merged
 * away); they go before the next node, or into the enclosing block's closing comments.
 */
function canonicalFields(fields: FieldNode[], carry: Comment[]): FieldNode[] {
  const out: FieldNode[] = [];
  const emit = (f: FieldNode): void => {
    if (carry.length) {
      f = { ...f, leading: [...carry.splice(0), ...f.leading] };
    }
    out.push(f);
  };
  for (let i = 0; i < fields.length;) {
    const f = fields[i]!;
    const schema = f.field;
    if (schema?.mapEntry && f.value.kind === 'list') {
      const { entries, leftover } = splitMapList(f);
      for (const entry of entries) emit(withCanonicalValue(entry));
      append(carry, leftover);
      i++;
    } else if (schema?.repeated && !schema.mapEntry) {
      let j = i + 1;
      while (j < fields.length && fields[j]!.field === schema) j++;
      emit(mergeRepeated(fields.slice(i, j)));
      i = j;
    } else {
      emit(withCanonicalValue(f));
      i++;
    }
  }
  return out;
}

function withCanonicalValue(f: FieldNode): FieldNode {
  return { ...f, value: canonicalValue(f.value) };
}

function canonicalValue(v: ValueNode): ValueNode {
  if (v.kind === 'message') return canonicalMessage(v);
  // A scalar element is kept as it is (one object per element of a 3,000,000-element list is not copied).
  if (v.kind === 'list') return { ...v, elements: v.elements.map((e) => (e.value.kind === 'message' ? { ...e, value: canonicalMessage(e.value) } : e)) };
  return v;
}

function canonicalMessage(m: MessageNode): MessageNode {
  const carry: Comment[] = [];
  const fields = canonicalFields(m.fields, carry);
  return { ...m, fields, dangling: [...carry, ...m.dangling] };
}

/** `parameters [ {..}, {..} ]` -> one `parameters {..}` field per entry, comments moved along. */
function splitMapList(f: FieldNode): { entries: FieldNode[]; leftover: Comment[] } {
  const list = f.value as ListNode;
  const head: Comment[] = [...f.leading, ...(list.openComment ? [list.openComment] : [])];
  const out: FieldNode[] = list.elements.map((e, i) => {
    const entry: FieldNode = {
      ...f,
      value: e.value,
      leading: i === 0 ? [...head, ...e.leading] : e.leading,
      blankLineBefore: i === 0 ? f.blankLineBefore : e.blankLineBefore,
      blankLineAfterComments: e.blankLineAfterComments,
    };
    if (e.trailing) entry.trailing = e.trailing;
    else delete entry.trailing;
    return entry;
  });
  const last = out.at(-1);
  // An empty map list still sets the field: keep it, with its comments.
  if (!last) return { entries: [f], leftover: [] };
  // Comments before the closing "]" and after it have no node of their own any more: they go before
  // whatever follows (or into the enclosing block's closing comments).
  if (f.trailing && !last.trailing && !list.dangling.length) {
    last.trailing = f.trailing;
    return { entries: out, leftover: [] };
  }
  return { entries: out, leftover: [...list.dangling, ...(f.trailing ? [f.trailing] : [])] };
}

/** Merges adjacent occurrences of one repeated field into a single list field. */
function mergeRepeated(run: FieldNode[]): FieldNode {
  const first = run[0]!;
  const elements: ElementNode[] = [];
  let pending: Comment[] = [];
  let trailing: Comment | undefined;
  run.forEach((occ, k) => {
    const isLast = k === run.length - 1;
    const occLeading = k === 0 ? [] : occ.leading;
    if (occ.value.kind === 'list') {
      const list = occ.value;
      const open = list.openComment ? [list.openComment] : [];
      list.elements.forEach((e, i) => {
        const lead = i === 0 ? [...pending, ...occLeading, ...open, ...e.leading] : [...pending, ...e.leading];
        pending = [];
        elements.push({
          ...e,
          value: e.value.kind === 'message' ? canonicalMessage(e.value) : e.value,
          leading: lead,
          blankLineBefore: i === 0 && k > 0 ? occ.blankLineBefore : e.blankLineBefore,
        });
      });
      if (!list.elements.length) append(append(pending, occLeading), open);
      append(pending, list.dangling);
      if (occ.trailing) {
        if (isLast) trailing = occ.trailing;
        else {
          const lastElement = elements.at(-1);
          if (lastElement && !lastElement.trailing && !pending.length) lastElement.trailing = occ.trailing;
          else pending.push(occ.trailing);
        }
      }
    } else {
      const value = occ.value.kind === 'message' ? canonicalMessage(occ.value) : occ.value;
      const element: ElementNode = {
        value,
        leading: [...pending, ...occLeading],
        blankLineBefore: k > 0 && occ.blankLineBefore,
        blankLineAfterComments: k > 0 && occ.blankLineAfterComments,
      };
      if (occ.trailing) element.trailing = occ.trailing;
      pending = [];
      elements.push(element);
    }
  });
  const firstList = first.value.kind === 'list' ? first.value : undefined;
  const list: ListNode = {
    kind: 'list',
    range: { start: first.value.range.start, end: run.at(-1)!.value.range.end },
    elements,
    dangling: pending,
  };
  if (run.length === 1 && firstList?.openComment) {
    list.openComment = firstList.openComment;
    const e0 = elements[0];
    if (e0 && e0.leading[0] === firstList.openComment) e0.leading = e0.leading.slice(1);
    else if (!e0) list.dangling = list.dangling.filter((c) => c !== firstList.openComment);
  }
  const merged: FieldNode = {
    ...first,
    colon: true,
    value: list,
    range: { start: first.range.start, end: run.at(-1)!.range.end },
  };
  if (trailing) merged.trailing = trailing;
  else delete merged.trailing;
  return merged;
}
