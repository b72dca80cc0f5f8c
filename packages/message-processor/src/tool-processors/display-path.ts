const TRAILING_SEPARATORS = /[\\/]+$/;

/** `path` relative to `cwd` when it lies inside it ('.' for `cwd` itself), else unchanged. */
export function displayPath(path: string, cwd?: string): string {
  if (cwd === undefined) return path;
  const base = cwd.replace(TRAILING_SEPARATORS, '');
  // An empty base is the filesystem root (or no cwd at all): every path is "inside" it, none is shorter for it.
  if (base === '' || !path.startsWith(base)) return path;
  if (path.length === base.length) return '.';
  const separator = path.charAt(base.length);
  if (separator !== '/' && separator !== '\\') return path;
  const relative = path.slice(base.length + 1).replace(TRAILING_SEPARATORS, '');
  return relative === '' ? '.' : relative;
}
