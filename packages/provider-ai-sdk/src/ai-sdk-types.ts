// The shapes of `@ai-sdk/provider` (LanguageModelV2, V3 and V4) that this package writes and reads,
// declared here rather than imported: its declarations then need no `@ai-sdk/provider` of any
// particular version where it is installed. The tests check them against the real types.

/** JSON as the AI SDK types it (objects may hold `undefined`). */
export type AiSdkJsonValue =
  | null
  | string
  | number
  | boolean
  | { [key: string]: AiSdkJsonValue | undefined }
  | AiSdkJsonValue[];

/** `providerOptions` and `providerMetadata`: JSON objects by provider namespace. */
export type AiSdkProviderOptions = Record<string, Record<string, AiSdkJsonValue | undefined>>;

/** File bytes: V4 wraps them (`SharedV4FileData`); V2 and V3 take base64 text or a `URL`. */
export type AiSdkFileData = { type: 'data'; data: string } | { type: 'url'; url: URL } | string | URL;

/** A prompt part; each version's `text`, `file`, `reasoning`, `tool-call` and `tool-result`. */
export type AiSdkPromptPart = { type: string; providerOptions?: AiSdkProviderOptions } & Record<
  string,
  unknown
>;

export type AiSdkPromptMessage =
  | { role: 'system'; content: string }
  | { role: 'user' | 'assistant' | 'tool'; content: AiSdkPromptPart[] };

export type AiSdkPrompt = AiSdkPromptMessage[];

/** `LanguageModelV*FunctionTool`, the same in V2, V3 and V4. */
export interface AiSdkFunctionTool {
  type: 'function';
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

/** `LanguageModelV*ToolChoice`, the same in V2, V3 and V4. */
export type AiSdkToolChoice =
  | { type: 'auto' }
  | { type: 'none' }
  | { type: 'required' }
  | { type: 'tool'; toolName: string };

/** `LanguageModelV2Usage`: flat counts. */
export interface AiSdkV2Usage {
  inputTokens: number | undefined;
  outputTokens: number | undefined;
  totalTokens: number | undefined;
  reasoningTokens?: number | undefined;
  cachedInputTokens?: number | undefined;
}

/** `LanguageModelV3Usage` / `LanguageModelV4Usage`: input and output broken down. */
export interface AiSdkV4Usage {
  inputTokens: {
    total: number | undefined;
    noCache: number | undefined;
    cacheRead: number | undefined;
    cacheWrite: number | undefined;
  };
  outputTokens: { total: number | undefined; text: number | undefined; reasoning: number | undefined };
}

export type AiSdkUsage = AiSdkV2Usage | AiSdkV4Usage;
