/** The root of i in a parent array, halving the path on the way. */
function findRoot(p: { [i: number]: number }, i: number): number {
  while (p[i] !== i) {
    p[i] = p[p[i]!]!;
    i = p[i]!;
  }
  return i;
}

/** Disjoint sets over 0..n-1 with path halving and union by size. */
export class UnionFind {
  private readonly parent: Int32Array;
  private readonly size: Int32Array;
  constructor(n: number) {
    this.parent = new Int32Array(n);
    this.size = new Int32Array(n).fill(1);
    for (let i = 0; i < n; i++) this.parent[i] = i;
  }
  find(i: number): number {
    return findRoot(this.parent, i);
  }
  union(a: number, b: number): void {
    let ra = this.find(a);
    let rb = this.find(b);
    if (ra === rb) return;
    if (this.size[ra]! < this.size[rb]!) [ra, rb] = [rb, ra];
    this.parent[rb] = ra;
    this.size[ra]! += this.size[rb]!;
  }
}

/** A union-find keyed by strings, growing as keys appear. */
export class KeyedUnion {
  private readonly ids = new Map<string, number>();
  private parent: number[] = [];
  id(key: string): number {
    let i = this.ids.get(key);
    if (i === undefined) {
      i = this.parent.length;
      this.ids.set(key, i);
      this.parent.push(i);
    }
    return i;
  }
  find(i: number): number {
    return findRoot(this.parent, i);
  }
  union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent[Math.max(ra, rb)] = Math.min(ra, rb);
  }
  get size(): number {
    return this.parent.length;
  }
}
