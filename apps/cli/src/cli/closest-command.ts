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
 * The command (or alias) of `program` a mistyped word most likely meant — `conversatons` →
 * `conversations` — within two edits (one for short words); `undefined` when none is that close.
 */
export function closestCommand(program: Command, word: string): string | undefined {
  const limit = word.length <= 4 ? 1 : 2;
  let best: { name: string; distance: number } | undefined;
  for (const command of program.commands) {
    for (const name of [command.name(), ...command.aliases()]) {
      const distance = editDistance(word.toLowerCase(), name, limit);
      if (distance <= limit && (best === undefined || distance < best.distance)) best = { name, distance };
    }
  }
  return best?.name;
}
