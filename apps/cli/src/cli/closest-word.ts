import type { Command } from 'commander';

// Edits (insert, delete, replace) turning `a` into `b`, stopping once past `limit`.
function editDistance(a: string, b: string, limit: number): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const replace = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      row.push(Math.min(replace, (previous[j] as number) + 1, (row[j - 1] as number) + 1));
    }
    if (Math.min(...row) > limit) return limit + 1;
    previous = row;
  }
  return previous[b.length] as number;
}

/**
 * The word of `candidates` a mistyped `word` most likely meant — `conversatons` → `conversations`,
 * `antropic` → `anthropic` — within two edits (one for short words); `undefined` when none is that
 * close.
 */
export function closestWord(word: string, candidates: Iterable<string>): string | undefined {
  const limit = word.length <= 4 ? 1 : 2;
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(word.toLowerCase(), name, limit);
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** The command (or alias) of `program` a mistyped word most likely meant. */
export function closestCommand(program: Command, word: string): string | undefined {
  return closestWord(
    word,
    program.commands.flatMap((command) => [command.name(), ...command.aliases()]),
  );
}
