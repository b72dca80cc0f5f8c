const TRAILING_SEPARATORS = /[\\/]+$/;
const DRIVE_LETTER = /^[A-Za-z]:(?:[\\/]|$)/;
const COLON = 0x3a;
const SLASH = 0x2f;
const BACKSLASH = 0x5c;

const endsWithSeparator = (path: string) => {
  const last = path.charCodeAt(path.length - 1);
  return last === SLASH || last === BACKSLASH;
};

// Most paths have no trailing separator: the regex runs only for those that do.
const withoutTrailingSeparators = (path: string) =>
  endsWithSeparator(path) ? path.replace(TRAILING_SEPARATORS, '') : path;

/**
 * A Windows path (one with a drive letter) as compared: the drive letter upper case, backslashes
 * as slashes. Same length as `path`, so an index in one is the same place in the other. Other
 * paths are compared as they are: a POSIX file name may hold a backslash.
 */
function comparable(path: string): string {
  if (path.charCodeAt(1) !== COLON || !DRIVE_LETTER.test(path)) return path;
  return path.charAt(0).toUpperCase() + path.slice(1).replaceAll('\\', '/');
}

// The last cwd and its comparable form: one session's calls all share a cwd.
let lastCwd: string | undefined;
let lastBase = '';

function baseOf(cwd: string): string {
  if (cwd !== lastCwd) {
    lastBase = comparable(withoutTrailingSeparators(cwd));
    lastCwd = cwd;
  }
  return lastBase;
}

/** `path` relative to `cwd` when it lies inside it ('.' for `cwd` itself), else unchanged. */
export function displayPath(path: string, cwd?: string): string {
  if (cwd === undefined) return path;
  const base = baseOf(cwd);
  // An empty base is the filesystem root (or no cwd at all): every path is "inside" it, none is shorter for it.
  if (base === '' || !comparable(path).startsWith(base)) return path;
  if (path.length === base.length) return '.';
  const separator = path.charCodeAt(base.length);
  if (separator !== SLASH && separator !== BACKSLASH) return path;
  const relative = withoutTrailingSeparators(path.slice(base.length + 1));
  return relative === '' ? '.' : relative;
}
