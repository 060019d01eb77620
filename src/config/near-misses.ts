// Variables that look like settings but are none: a misspelt name (SITE_RO0T, EMAIL_HOTS) is
// otherwise silently ignored and its default used. Warned about, never refused: the
// environment also holds other programs' variables.
export interface ConfigWarning {
  /** The variable warned about (or the setting, for a setting that does nothing alone). */
  name: string;
  message: string;
  /** The setting probably meant, when the name is a near miss of one. */
  suggestion: string | null;
}

/** Edits (insert, delete, substitute, swap two neighbours) from a to b: optimal string alignment. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * Two edits away from a long name, one from a short one: HOME is two edits from HOST, and every
 * shell sets it.
 */
const reach = (known: string) => (known.length >= 8 ? 2 : 1);

/** The known setting `name` is a near miss of (case aside), or null. */
export function nearestSetting(name: string, known: readonly string[]): string | null {
  const upper = name.toUpperCase();
  let best: { name: string; d: number } | null = null;
  for (const k of known) {
    const d = editDistance(upper, k);
    if (d <= reach(k) && (!best || d < best.d)) best = { name: k, d };
  }
  return best?.name ?? null;
}

/**
 * Prefixes that only our settings use: the first word of at least two of them (a setting that
 * is the bare word counts: MONITOR, MONITOR_INTERVAL_MS). LOG_ or DATABASE_ name one setting
 * each and are common elsewhere, so they are not families.
 */
export function settingFamilies(known: readonly string[]): Map<string, string[]> {
  const byWord = new Map<string, string[]>();
  for (const k of known) {
    const word = k.split('_')[0]!;
    byWord.set(word, [...(byWord.get(word) ?? []), k]);
  }
  return new Map([...byWord].filter(([, names]) => names.length >= 2).map(([word, names]) => [`${word}_`, names]));
}

/** A warning for each variable of `env` that is not a setting but looks like one. */
export function unknownSettings(env: Record<string, string | undefined>, known: readonly string[]): ConfigWarning[] {
  const knownSet = new Set(known);
  const families = settingFamilies(known);
  const warnings: ConfigWarning[] = [];
  for (const name of Object.keys(env).sort()) {
    if (knownSet.has(name) || env[name] === undefined) continue;
    const suggestion = nearestSetting(name, known);
    if (suggestion) {
      warnings.push({ name, suggestion, message: `${name} is not a setting (it is ignored); did you mean ${suggestion}?` });
      continue;
    }
    const family = [...families].find(([prefix]) => name.startsWith(prefix));
    if (family) {
      const [prefix, names] = family;
      warnings.push({ name, suggestion: null, message: `${name} is not a setting (it is ignored); the ${prefix} settings are ${names.join(', ')}` });
    }
  }
  return warnings;
}
