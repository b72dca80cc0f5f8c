import { REAL_MODEL_HINT } from './real-model-hint.js';
import type { ResolvedModel } from './resolved-model.js';

/**
 * The line printed when a session starts: which model and why. The demo gets a banner instead,
 * so nobody mistakes its canned answers for a model's.
 */
export function describeModel(model: ResolvedModel): string {
  if (model.demo) {
    return `model: offline demo (${model.source}): a scripted tour of a sample project, not a language model; its answers are canned.\n${REAL_MODEL_HINT}`;
  }
  return `model: ${model.provider} ${model.modelId} (from ${model.source})`;
}
