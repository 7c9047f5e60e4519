/**
 * How deep form XObjects nest (a form drawing a form drawing a form...). pdf.js follows the chain
 * with no limit of its own and its cost grows faster than the chain: 2,000 levels took 3 s and
 * 300 MB, 10,000 took 150 s and 3.8 GB, from a 2 MB file. Real documents nest a handful deep.
 */

/**
 * Forms a form can reach through its resources: directly (an inline /Resources), or through up to
 * two objects that are not forms (a /Resources dictionary, then its /XObject dictionary). This
 * over-approximates what `Do` can draw, which only makes the depth a bound from above.
 */
function formChildren(form: number, refs: Map<number, number[]>, isForm: Set<number>): number[] {
  const found = new Set<number>();
  const seen = new Set<number>([form]);
  let frontier = [form];
  for (let hop = 0; hop < 3 && frontier.length > 0; hop++) {
    const next: number[] = [];
    for (const obj of frontier) {
      for (const r of refs.get(obj) ?? []) {
        if (seen.has(r)) continue;
        seen.add(r);
        if (isForm.has(r)) found.add(r);
        else next.push(r);
      }
    }
    frontier = next;
  }
  return [...found];
}

interface Visit {
  form: number;
  kids: number[];
  next: number;
  deepest: number;
}

/** Longest chain of forms (1 = a form that draws no form), stopping early once past `limit`. */
export function formNestingDepth(refs: Map<number, number[]>, forms: number[], limit: number): number {
  const isForm = new Set(forms);
  const depth = new Map<number, number>();
  const onPath = new Set<number>();
  let max = 0;
  for (const root of forms) {
    if (depth.has(root)) continue;
    // Iterative depth-first search: the chain itself may be thousands deep.
    const path: Visit[] = [{ form: root, kids: formChildren(root, refs, isForm), next: 0, deepest: 0 }];
    onPath.add(root);
    while (path.length > 0) {
      const v = path[path.length - 1]!;
      if (v.next < v.kids.length) {
        const kid = v.kids[v.next++]!;
        const known = depth.get(kid);
        if (known !== undefined) v.deepest = Math.max(v.deepest, known);
        else if (!onPath.has(kid)) {
          // A cycle is skipped: pdf.js refuses to draw a form from inside itself.
          onPath.add(kid);
          path.push({ form: kid, kids: formChildren(kid, refs, isForm), next: 0, deepest: 0 });
          if (path.length > limit) return path.length;
        }
        continue;
      }
      path.pop();
      onPath.delete(v.form);
      const d = v.deepest + 1;
      depth.set(v.form, d);
      max = Math.max(max, d);
      if (d > limit) return d;
      const parent = path[path.length - 1];
      if (parent) parent.deepest = Math.max(parent.deepest, d);
    }
  }
  return max;
}
