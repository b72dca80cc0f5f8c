import type { ResolvedModel } from './resolved-model.js';

/**
 * The line to print when a session starts: which model and why, never the key. A model with a
 * `description` (a demo's banner) is described by it; a scripted one without says it is no model.
 */
export function describeModel(model: ResolvedModel): string {
  if (model.description !== undefined) return model.description;
  const line = `model: ${model.provider} ${model.modelId} (from ${model.source})`;
  return model.demo ? `${line}: scripted, not a language model` : line;
}
