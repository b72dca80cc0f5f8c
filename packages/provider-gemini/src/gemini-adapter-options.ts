import type { ModelAdapterOptions } from '@cairn/provider-utils';

export interface GeminiAdapterOptions extends ModelAdapterOptions {
  /** The API's origin, without the version. Default `https://generativelanguage.googleapis.com`. */
  baseURL?: string;
  /** The API version in the path. Default `v1beta` (thought parts and signatures need it). */
  apiVersion?: string;
}
