/**
 * A pure function with its answers kept: for lookups that are slow (Intl, SQLite's statement
 * preparation) and asked again and again with the same few arguments, which `keyOf` names. The
 * bound keeps a stream of distinct arguments from growing it without end: past it, everything is
 * forgotten at once.
 */
export function boundedMemo<A extends unknown[], V>(
  limit: number,
  keyOf: (...args: A) => string,
  compute: (...args: A) => V,
): (...args: A) => V {
  const answers = new Map<string, V>();
  return (...args) => {
    const key = keyOf(...args);
    if (answers.has(key)) return answers.get(key) as V;
    const value = compute(...args);
    if (answers.size >= limit) answers.clear();
    answers.set(key, value);
    return value;
  };
}

/** `keyOf` of a function of one string. */
export const byText = (text: string): string => text;
