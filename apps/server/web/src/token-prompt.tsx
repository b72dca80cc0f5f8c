import { useState } from 'preact/hooks';

export interface TokenPromptProps {
  /** A token was tried and the server refused it. */
  rejected: boolean;
  onSubmit(token: string): void;
}

/** Asks for the server's API token (the page itself is public; the API is not). */
export function TokenPrompt({ rejected, onSubmit }: TokenPromptProps) {
  const [token, setToken] = useState('');
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const trimmed = token.trim();
    if (trimmed !== '') onSubmit(trimmed);
  };
  return (
    <main class="token-screen">
      <form class="token-form" aria-label="Sign in" onSubmit={submit}>
        <h1>Cairn</h1>
        <p>This server needs its API token. It is kept in this tab only (sessionStorage).</p>
        <label for="api-token">API token</label>
        <input
          id="api-token"
          type="password"
          autocomplete="off"
          value={token}
          onInput={(event) => setToken(event.currentTarget.value)}
          required
        />
        {rejected && (
          <p class="form-error" role="alert">
            The server did not accept that token.
          </p>
        )}
        <button type="submit">Use token</button>
      </form>
    </main>
  );
}
