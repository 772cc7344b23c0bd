import { CATEGORIES, type Category } from '../tools/catalog-generator/vocabulary.js';

/**
 * The words the benchmark searches for, picked from the generator's vocabulary rather
 * than from a generated catalog, so every catalog size is asked the same queries and
 * their latencies can be compared across sizes. A word's weight is the share of titles
 * expected to contain it: the generator picks a category, then one noun, adjective and
 * origin of it, uniformly, and the English title is made of those three.
 */
export interface QueryWords {
  /** In the most titles. */
  common: string;
  /** In the fewest titles (still some: every word of the vocabulary is used). */
  rare: string;
  /** The initial of the most title words. */
  prefix: string;
  /** A word and an initial asked for nowhere else in the run, for first answers to new queries. */
  unaskedWord: string;
  unaskedPrefix: string;
}

/** Words shorter than this ("of", "the") say nothing about search cost. */
const MIN_WORD_LENGTH = 4;

function words(text: string): string[] {
  return text.toLowerCase().match(new RegExp(`\\p{L}{${MIN_WORD_LENGTH},}`, 'gu')) ?? [];
}

/** The share of one category's titles expected to contain each word. */
function categoryWeights(category: Category): Map<string, number> {
  const weights = new Map<string, number>();
  for (const part of [category.nouns, category.adjectives, category.origins]) {
    for (const entry of part) {
      for (const word of new Set(words(entry.en))) weights.set(word, (weights.get(word) ?? 0) + 1 / part.length);
    }
  }
  return weights;
}

/** Heaviest first; ties in alphabetical order, so the pick never depends on iteration order. */
function ranked(weights: Map<string, number>): string[] {
  return [...weights].sort(([a, x], [b, y]) => y - x || a.localeCompare(b)).map(([key]) => key);
}

export function pickQueryWords(): QueryWords {
  const titleWords = new Map<string, number>();
  for (const category of CATEGORIES) {
    for (const [word, weight] of categoryWeights(category)) titleWords.set(word, (titleWords.get(word) ?? 0) + weight / CATEGORIES.length);
  }
  const initials = new Map<string, number>();
  for (const [word, weight] of titleWords) initials.set(word[0]!, (initials.get(word[0]!) ?? 0) + weight);
  const byWeight = ranked(titleWords);
  const byInitial = ranked(initials);
  return {
    common: byWeight[0]!,
    rare: byWeight.at(-1)!,
    prefix: byInitial[0]!,
    // Second in line: common enough to cost what a real first search costs.
    unaskedWord: byWeight[1]!,
    unaskedPrefix: byInitial[1]!,
  };
}
