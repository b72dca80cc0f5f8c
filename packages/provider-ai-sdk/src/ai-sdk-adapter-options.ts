import type { ModelCapabilities, ProviderMetadata } from '@cairn/core';

export interface AiSdkAdapterOptions {
  /**
   * The adapter's `provider`: the namespace its replay data (reasoning signatures, per-call data)
   * is kept under, so that only a model of the same provider is sent it back. Default: the AI SDK
   * model's `provider` (`anthropic.messages`, `mistral.chat`).
   */
  provider?: string;
  /** Retries of a retryable failure (429, 5xx, network), honouring `Retry-After`. Default 2. */
  maxRetries?: number;
  /** `providerOptions` sent with every call; a request's own namespaces replace these. */
  providerOptions?: ProviderMetadata;
  /**
   * What the model can do, over the defaults: streaming, tool calls (parallel too), reasoning,
   * structured output, and images and PDFs as input (`inputMediaTypes: ['image/*',
   * 'application/pdf']`). Declare less for a model that takes less (`inputMediaTypes: []`: text only).
   */
  capabilities?: Partial<ModelCapabilities>;
}
