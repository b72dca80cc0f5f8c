const LOOPBACK_PORT = /\b(127\.0\.0\.1|localhost):\d+\b/g;

/** Written in place of the repository's directory (where the CLIs are installed) in recorded text. */
export const WORKSPACE_PLACEHOLDER = '<workspace>';

/**
 * Replaces a run's machine-specific root directory (a random temp dir holding its cwd and HOME)
 * with a fixed placeholder of the same length, in the plain form and in the form Claude Code uses
 * for project directories (`/` → `-`), so split JSON deltas keep their offsets. The placeholder
 * keeps the root's parent and fills its last segment with `X` after the prefix. With `workspace`
 * (the checkout the CLIs are installed in, which stack traces on stderr name), that directory
 * becomes `<workspace>` too. The stand-in's loopback port (a CLI's error text names its URL) differs
 * from run to run and nothing reads it back, so it becomes `PORT` (`127.0.0.1:PORT`).
 */
export function scrubMachinePaths(text: string, root: string, options: { workspace?: string } = {}): string {
  const cut = root.lastIndexOf('/') + 1;
  const name = root.slice(cut);
  const stem = name.replace(/[^-]+$/, '');
  const placeholderName = (stem + 'X'.repeat(name.length)).slice(0, name.length);
  const scrubbed = text.split(name).join(placeholderName).replace(LOOPBACK_PORT, '$1:PORT');
  return options.workspace === undefined
    ? scrubbed
    : scrubbed.split(options.workspace).join(WORKSPACE_PLACEHOLDER);
}
