/**
 * The small part of semantic versioning the plugin runtime needs: parse `x.y.z` and test it
 * against a range of space-separated comparators (`^1.2.0`, `~1.2`, `>=1.0.0 <2.0.0`, `1.x`, `*`).
 */
export type Version = [number, number, number];

export function parseVersion(text: string): Version | null {
  const m = /^v?(\d+)\.(\d+)\.(\d+)(?:[-+].*)?$/.exec(text.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

function partial(text: string): { v: Version; parts: number } | null {
  const m = /^v?(\d+|x|\*)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?$/.exec(text);
  if (!m) return null;
  const raw = [m[1], m[2], m[3]];
  let parts = 0;
  const v: Version = [0, 0, 0];
  for (let i = 0; i < 3; i++) {
    if (raw[i] === undefined || raw[i] === 'x' || raw[i] === '*') break;
    v[i] = Number(raw[i]);
    parts++;
  }
  return { v, parts };
}

function upperOf(v: Version, parts: number): Version | null {
  if (parts === 0) return null;
  if (parts === 1) return [v[0] + 1, 0, 0];
  if (parts === 2) return [v[0], v[1] + 1, 0];
  return null;
}

function testComparator(c: string, v: Version): boolean {
  if (c === '*' || c === '') return true;
  const op = /^(\^|~|>=|<=|>|<|=)?(.*)$/.exec(c)!;
  const p = partial(op[2]);
  if (!p) return false;
  // `*`, `^*`, `>=x` and the like match every version; `<*` and `>*` match none (as npm reads them).
  if (p.parts === 0) return op[1] !== '<' && op[1] !== '>';
  const base = p.v;
  const upper = upperOf(base, p.parts);
  switch (op[1]) {
    case '^': {
      // The first non-zero part is fixed; a missing part counts as unknown, not zero (`^0` is <1.0.0).
      const caret: Version =
        base[0] > 0 || p.parts === 1 ? [base[0] + 1, 0, 0] : base[1] > 0 || p.parts === 2 ? [0, base[1] + 1, 0] : [0, 0, base[2] + 1];
      return compare(v, base) >= 0 && compare(v, caret) < 0;
    }
    case '~': {
      const tilde: Version = p.parts >= 2 ? [base[0], base[1] + 1, 0] : [base[0] + 1, 0, 0];
      return compare(v, base) >= 0 && compare(v, tilde) < 0;
    }
    case '>=': return compare(v, base) >= 0;
    case '<': return compare(v, base) < 0;
    // A partial version stands for all of its patch (or minor) releases: `>1.2` is >=1.3.0, `<=1.2` is <1.3.0.
    case '>': return upper === null ? compare(v, base) > 0 : compare(v, upper) >= 0;
    case '<=': return upper === null ? compare(v, base) <= 0 : compare(v, upper) < 0;
    default: {
      if (p.parts === 3) return compare(v, base) === 0;
      return compare(v, base) >= 0 && (upper === null || compare(v, upper) < 0);
    }
  }
}

/** The comparators of one `||` alternative; `>= 1.0.0` (operator, space, version) is one comparator. */
function comparatorsOf(alternative: string): string[] {
  return alternative.trim().replace(/(\^|~|>=|<=|>|<|=)\s+/g, '$1').split(/\s+/);
}

export function isValidRange(range: string): boolean {
  return range.split('||').every((alt) =>
    comparatorsOf(alt).every((c) => c === '*' || c === '' || partial(c.replace(/^(\^|~|>=|<=|>|<|=)/, '')) !== null),
  );
}

/** True when `version` satisfies `range`; `||` separates alternatives. */
export function satisfies(version: string, range: string): boolean {
  const v = parseVersion(version);
  if (!v) return false;
  return range.split('||').some((alt) => comparatorsOf(alt).every((c) => testComparator(c, v)));
}
