import type { ModelAdapterOptions } from '@cairn/provider-utils';
import type { GoogleGenAIOptions } from '@google/genai';

export interface GeminiAdapterOptions extends ModelAdapterOptions {
  /**
   * The API's origin, without the version. Default `https://generativelanguage.googleapis.com`, or
   * Vertex AI's endpoint for the `location` with `vertexai`.
   */
  baseURL?: string;
  /** The API version in the path. Default `v1beta` on the Gemini API (thought signatures need it). */
  apiVersion?: string;
  /**
   * Call Vertex AI instead of the Gemini API. With `project` (and `location`) the requests are
   * authorised by Google Application Default Credentials (or `googleAuthOptions`); with an
   * `apiKey` and neither, by the key (Vertex AI express mode). Default `false`: the adapter does not
   * read `GOOGLE_GENAI_USE_VERTEXAI`.
   */
  vertexai?: boolean;
  /** The Google Cloud project (Vertex AI only). Default `GOOGLE_CLOUD_PROJECT`. */
  project?: string;
  /** The Google Cloud location (Vertex AI only), such as `us-central1` or `global`. Default `GOOGLE_CLOUD_LOCATION`. */
  location?: string;
  /** How to authenticate to Vertex AI when Application Default Credentials are not what you want (key file, scopes, a client). */
  googleAuthOptions?: GoogleGenAIOptions['googleAuthOptions'];
}
