import { useEffect, useState } from 'preact/hooks';
import { listModels, type OfferedModel } from './api-client.js';

const CHOSEN_KEY = 'cairn.model';

// The list changes only when the server restarts: one request per page load.
let offered: Promise<OfferedModel[]> | undefined;

/**
 * The models the server offers and the one chosen for the next turns: remembered in `localStorage`
 * while the server still offers it, else the server's default (`undefined`: name none).
 */
export function useModels(): {
  models: readonly OfferedModel[];
  chosen: string | undefined;
  choose(id: string): void;
} {
  const [models, setModels] = useState<readonly OfferedModel[]>([]);
  const [remembered, setRemembered] = useState(() => localStorage.getItem(CHOSEN_KEY) ?? undefined);
  useEffect(() => {
    offered ??= listModels().catch(() => {
      offered = undefined;
      return [];
    });
    let current = true;
    void offered.then((list) => {
      if (current) setModels(list);
    });
    return () => {
      current = false;
    };
  }, []);
  const chosen = models.some((model) => model.id === remembered && !model.default) ? remembered : undefined;
  return {
    models,
    chosen,
    choose(id) {
      localStorage.setItem(CHOSEN_KEY, id);
      setRemembered(id);
    },
  };
}
