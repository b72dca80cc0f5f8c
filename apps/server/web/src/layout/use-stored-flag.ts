import { useState } from 'preact/hooks';

/** A yes/no the page remembers across visits (localStorage), e.g. the sidebar collapsed. */
export function useStoredFlag(key: string): [boolean, (value: boolean) => void] {
  const [value, setValue] = useState(() => readFlag(key));
  const set = (next: boolean) => {
    setValue(next);
    try {
      if (next) localStorage.setItem(key, 'true');
      else localStorage.removeItem(key);
    } catch {
      // Storage refused (a private window's quota): the choice lasts until the page is left.
    }
  };
  return [value, set];
}

function readFlag(key: string): boolean {
  try {
    return localStorage.getItem(key) === 'true';
  } catch {
    return false;
  }
}
