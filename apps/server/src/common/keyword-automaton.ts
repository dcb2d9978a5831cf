/**
 * Case- and width-folding: NFKC turns full-width Latin and half-width katakana into their
 * ordinary forms, lower-casing folds Latin, Greek and Cyrillic case.
 */
export function foldText(s: string): string {
  return s.normalize('NFKC').toLowerCase();
}

interface Node {
  next: Map<string, number>;
  fail: number;
  /** Index of a word ending here (directly or through a fail link), else -1. */
  out: number;
}

/**
 * Aho–Corasick automaton over a word list: one pass over the text finds whether any word
 * occurs, whatever the number of words. Matching is on folded text (see foldText).
 */
export class KeywordAutomaton {
  private readonly nodes: Node[] = [{ next: new Map(), fail: 0, out: -1 }];
  readonly words: string[];

  constructor(words: readonly string[]) {
    this.words = [...new Set(words.map((w) => foldText(w.trim())).filter(Boolean))];
    this.words.forEach((w, i) => this.add(w, i));
    this.link();
  }

  get size(): number {
    return this.words.length;
  }

  private add(word: string, index: number) {
    let at = 0;
    for (const ch of word) {
      let to = this.nodes[at].next.get(ch);
      if (to === undefined) {
        to = this.nodes.push({ next: new Map(), fail: 0, out: -1 }) - 1;
        this.nodes[at].next.set(ch, to);
      }
      at = to;
    }
    this.nodes[at].out = index;
  }

  /** Breadth-first fail links; a node inherits the output of its fail target. */
  private link() {
    const queue: number[] = [...this.nodes[0].next.values()];
    for (let q = 0; q < queue.length; q++) {
      const node = this.nodes[queue[q]];
      for (const [ch, to] of node.next) {
        let f = node.fail;
        while (f !== 0 && !this.nodes[f].next.has(ch)) f = this.nodes[f].fail;
        const target = this.nodes[f].next.get(ch);
        this.nodes[to].fail = target !== undefined && target !== to ? target : 0;
        if (this.nodes[to].out < 0) this.nodes[to].out = this.nodes[this.nodes[to].fail].out;
        queue.push(to);
      }
    }
  }

  /** The first listed word found in the text (folded before matching), or undefined. */
  find(text: string): string | undefined {
    if (this.words.length === 0 || !text) return undefined;
    let at = 0;
    for (const ch of foldText(text)) {
      while (at !== 0 && !this.nodes[at].next.has(ch)) at = this.nodes[at].fail;
      at = this.nodes[at].next.get(ch) ?? 0;
      if (this.nodes[at].out >= 0) return this.words[this.nodes[at].out];
    }
    return undefined;
  }
}
