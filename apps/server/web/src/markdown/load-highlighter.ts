import { useEffect, useState } from 'preact/hooks';

type Highlighter = typeof import('./highlight-code.js');

let loaded: Highlighter | undefined;
let loading: Promise<Highlighter> | undefined;

/**
 * highlight.js and its languages, fetched on first use: they are as large as the rest of the
 * page, and a conversation without code never needs them.
 */
export function loadHighlighter(): Promise<Highlighter> {
  loading ??= import('./highlight-code.js').then((module) => {
    loaded = module;
    return module;
  });
  return loading;
}

/** The highlighter once it has loaded (the component draws again then); undefined until. */
export function useHighlighter(): Highlighter | undefined {
  const [, setLoaded] = useState(loaded !== undefined);
  useEffect(() => {
    // Not loadable (a page left open across a deploy, its chunk gone): the code stays plain.
    if (loaded === undefined)
      loadHighlighter().then(
        () => setLoaded(true),
        () => undefined,
      );
  }, []);
  return loaded;
}
