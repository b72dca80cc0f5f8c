// sessionStorage: the token lives as long as the tab, is never put in a URL and is not shared with other tabs.
const TOKEN_KEY = 'cairn.apiToken';

export function readToken(): string | undefined {
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
}

export function saveToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token);
}

export function forgetToken(): void {
  sessionStorage.removeItem(TOKEN_KEY);
}
