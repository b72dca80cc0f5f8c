// Codex runs every command through a login shell and reports the shell line it ran:
// `/bin/bash -lc 'ls -la'` (a `'` inside written `'\''`). The model's own command is the quoted part.
const SHELL_LINE = /^(?:\/usr)?(?:\/bin\/)?(?:ba|z)?sh -l?c '((?:[^']|'\\'')*)'$/s;

/** The command inside Codex's `<shell> -lc '<command>'` line; the line itself when it is not one. */
export function codexShellCommand(line: string): string {
  const quoted = SHELL_LINE.exec(line)?.[1];
  return quoted === undefined ? line : quoted.replaceAll("'\\''", "'");
}

// Anything that makes a command more than one plain program call: pipes, lists, redirections,
// substitutions, globs, variables.
const SHELL_SYNTAX = /[|&;<>()$`*?[\]{}~\\\n]/;

/**
 * The words of a simple command (quotes removed), or undefined when it uses any other shell
 * syntax: only such commands can be read as a plain "read this file" or "search for that".
 */
export function simpleCommandWords(command: string): string[] | undefined {
  const words: string[] = [];
  let word: string | undefined;
  let quote: "'" | '"' | undefined;
  for (const char of command) {
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      // Double quotes still expand `$`, backquotes and escapes: not plain text.
      else if (quote === '"' && (char === '$' || char === '`' || char === '\\')) return undefined;
      else word = (word ?? '') + char;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      word ??= '';
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (SHELL_SYNTAX.test(char)) return undefined;
    else word = (word ?? '') + char;
  }
  if (quote !== undefined) return undefined;
  if (word !== undefined) words.push(word);
  return words;
}
