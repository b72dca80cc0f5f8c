/**
 * Replaces a run's machine-specific root directory (a random temp dir holding its cwd and HOME)
 * with a fixed placeholder of the same length, in the plain form and in the form Claude Code uses
 * for project directories (`/` → `-`), so split JSON deltas keep their offsets. The placeholder
 * keeps the root's parent and fills its last segment with `X` after the prefix.
 */
export function scrubMachinePaths(text: string, root: string): string {
  const cut = root.lastIndexOf('/') + 1;
  const name = root.slice(cut);
  const stem = name.replace(/[^-]+$/, '');
  const placeholderName = (stem + 'X'.repeat(name.length)).slice(0, name.length);
  return text.split(name).join(placeholderName);
}
