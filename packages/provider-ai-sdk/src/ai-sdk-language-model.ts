/**
 * A language model of the Vercel AI SDK, of any specification version `@ai-sdk/provider` defines:
 * `LanguageModelV2` (AI SDK 5), `LanguageModelV3` (AI SDK 6) or `LanguageModelV4` (AI SDK 7).
 *
 * Structural on purpose: a model built by a provider of any of those lines (each bundling its own
 * `@ai-sdk/provider`) is accepted, and this package's types never need the user's
 * `@ai-sdk/provider` to be the version it was built with.
 */
export interface AiSdkLanguageModel {
  readonly specificationVersion: 'v2' | 'v3' | 'v4';
  /** The AI SDK's provider id (`anthropic.messages`, `mistral.chat`, `<name>.chat`). */
  readonly provider: string;
  readonly modelId: string;
  /** URLs (by media type) the model fetches itself; any other URL is downloaded first. */
  readonly supportedUrls?: PromiseLike<Record<string, RegExp[]>> | Record<string, RegExp[]>;
  // `never` parameters: every version's call options are accepted, and none is assumed here.
  doGenerate(options: never): PromiseLike<unknown>;
  doStream(options: never): PromiseLike<unknown>;
}

export type SpecificationVersion = AiSdkLanguageModel['specificationVersion'];

export const SPECIFICATION_VERSIONS: readonly SpecificationVersion[] = ['v2', 'v3', 'v4'];
