import { definedFields } from '@cairn/core';
import { nonBlank } from './non-blank.js';

/**
 * Gemini on Vertex AI rather than the Gemini API. With a `project` or a `location` the calls are
 * authorised by Google Application Default Credentials; with neither, by an API key (express mode).
 */
export interface VertexAISettings {
  /** The Google Cloud project (`GOOGLE_CLOUD_PROJECT`). */
  project?: string;
  /** The Google Cloud location, such as `us-central1` or `global` (`GOOGLE_CLOUD_LOCATION`). */
  location?: string;
}

/** The variable that turns Vertex AI on, as `@google/genai` reads it. */
export const VERTEX_AI_SWITCH = 'GOOGLE_GENAI_USE_VERTEXAI';

/** Express mode's key, in the order `@google/genai` looks for it. */
export const VERTEX_AI_KEY_VARIABLES = ['GOOGLE_API_KEY', 'GEMINI_API_KEY'] as const;

/**
 * Vertex AI as `@google/genai`'s standard environment asks for it: `GOOGLE_GENAI_USE_VERTEXAI` is
 * `true` (any case, as the SDK reads it), with `GOOGLE_CLOUD_PROJECT` and `GOOGLE_CLOUD_LOCATION`
 * when set. `undefined` when Vertex AI is not asked for.
 */
export function vertexAIIn(env: NodeJS.ProcessEnv): VertexAISettings | undefined {
  if (nonBlank(env[VERTEX_AI_SWITCH])?.toLowerCase() !== 'true') return undefined;
  return definedFields({
    project: nonBlank(env.GOOGLE_CLOUD_PROJECT),
    location: nonBlank(env.GOOGLE_CLOUD_LOCATION),
  });
}

/** Whether the settings name a project or location, so Google credentials rather than a key apply. */
export function usesGoogleCredentials(vertexAI: VertexAISettings): boolean {
  return vertexAI.project !== undefined || vertexAI.location !== undefined;
}

/** Express mode's key from the environment, if one is set. */
export function vertexAIKeyIn(env: NodeJS.ProcessEnv): string | undefined {
  return VERTEX_AI_KEY_VARIABLES.map((variable) => nonBlank(env[variable])).find((key) => key !== undefined);
}
