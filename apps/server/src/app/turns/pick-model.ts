import { CairnError, type ModelAdapter } from '@cairn/core';

/**
 * The model a turn asked for by id, among those the server offers (`GET /v1/models`); none asked:
 * `undefined`, the runtime's default. An id the server does not offer is `INVALID_ARGUMENT`.
 */
export function pickModel(
  offered: readonly ModelAdapter[],
  modelId: string | undefined,
): ModelAdapter | undefined {
  if (modelId === undefined) return undefined;
  const found = offered.find((model) => model.modelId === modelId);
  if (found !== undefined) return found;
  const ids = offered.map((model) => model.modelId);
  throw new CairnError(
    'INVALID_ARGUMENT',
    ids.length === 0
      ? `model ${modelId}: this server offers no choice of model`
      : `model ${modelId} is not offered here (one of: ${ids.join(', ')})`,
    { details: { model: modelId, offered: ids } },
  );
}
