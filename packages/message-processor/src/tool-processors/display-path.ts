const TRAILING_SEPARATORS = /[\\/]+$/;
const DRIVE_LETTER = /^[A-Za-z]:(?:[\\/]|$)/;

/**
 * A Windows path (one with a drive letter) as compared: the drive letter upper case, backslashes
 * as slashes. Same length as `path`, so an index in one is the same place in the other. Other
 * paths are compared as they are: a POSIX file name may hold a backslash.
 */
function comparable(path: string): string {
  if (!DRIVE_LETTER.test(path)) return path;
  return path.charAt(0).toUpperCase() + path.slice(1).replaceAll('\\', '/');
}

/** `path` relative to `cwd` when it lies inside it ('.' for `cwd` itself), else unchanged. */
export function displayPath(path: string, cwd?: string): string {
  if (cwd === undefined) return path;
  const base = comparable(cwd.replace(TRAILING_SEPARATORS, ''));
  // An empty base is the filesystem root (or no cwd at all): every path is "inside" it, none is shorter for it.
  if (base === '' || !comparable(path).startsWith(base)) return path;
  if (path.length === base.length) return '.';
  const separator = path.charAt(base.length);
  if (separator !== '/' && separator !== '\\') return path;
  const relative = path.slice(base.length + 1).replace(TRAILING_SEPARATORS, '');
  return relative === '' ? '.' : relative;
}
