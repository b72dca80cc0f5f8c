// The Gemini API's JSON (v1beta `generateContent` / `streamGenerateContent`), as far as this
// adapter reads and writes it. `@google/genai` copies these fields between its types and the wire
// unchanged; the adapter keeps its own narrower types (with unknown parts passed through) and
// casts at the SDK boundary only.

/** One part of a turn. A part has exactly one kind of payload; `thought` marks reasoning text. */
export interface GeminiPart {
  text?: string;
  /** The text is the model's reasoning (a thought summary), not its answer. */
  thought?: boolean;
  /** Opaque token that lets the model resume its reasoning when this part is sent back. */
  thoughtSignature?: string;
  functionCall?: GeminiFunctionCall;
  functionResponse?: GeminiFunctionResponse;
  /** Bytes in the request, base64. */
  inlineData?: GeminiBlob;
  /** Bytes Gemini fetches: a Files API URI, a YouTube URL or a public https URL. */
  fileData?: GeminiFileData;
  /** Other payloads (executable code, …) pass through unread. */
  [other: string]: unknown;
}

export interface GeminiBlob {
  mimeType: string;
  /** Standard base64. */
  data: string;
}

export interface GeminiFileData {
  mimeType: string;
  fileUri: string;
}

export interface GeminiFunctionCall {
  /** Newer API versions may assign one; the Gemini Developer API usually does not. */
  id?: string;
  name: string;
  args?: Record<string, unknown>;
}

export interface GeminiFunctionResponse {
  name: string;
  response: Record<string, unknown>;
  /** Media the function returned (Gemini 3's multimodal function responses): inline only. */
  parts?: Array<{ inlineData: GeminiBlob }>;
}

export type GeminiRole = 'user' | 'model';

export interface GeminiContent {
  role: GeminiRole;
  parts: GeminiPart[];
}

/** `systemInstruction` has parts only; the SDK adds its role. */
export interface GeminiSystemInstruction {
  parts: Array<{ text: string }>;
}

export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  /** OpenAPI 3.0 schema subset; omitted for a tool without arguments. */
  parameters?: Record<string, unknown>;
}

export interface GeminiTool {
  functionDeclarations: GeminiFunctionDeclaration[];
}

export type GeminiFunctionCallingMode = 'AUTO' | 'ANY' | 'NONE';

export interface GeminiToolConfig {
  functionCallingConfig: {
    mode: GeminiFunctionCallingMode;
    allowedFunctionNames?: string[];
  };
}

export interface GeminiGenerationConfig {
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  stopSequences?: string[];
  seed?: number;
  thinkingConfig?: Record<string, unknown>;
  /** `application/json` for structured output. */
  responseMimeType?: string;
  /** The answer's schema, in the OpenAPI 3.0 subset function parameters take. */
  responseSchema?: Record<string, unknown>;
}

export interface GeminiUsageMetadata {
  promptTokenCount?: number | undefined;
  candidatesTokenCount?: number | undefined;
  totalTokenCount?: number | undefined;
  cachedContentTokenCount?: number | undefined;
  thoughtsTokenCount?: number | undefined;
  toolUsePromptTokenCount?: number | undefined;
}

export interface GeminiCandidate {
  content?: { role?: string; parts?: GeminiPart[] };
  finishReason?: string;
  index?: number;
}

/** A whole `generateContent` response, or one chunk of `streamGenerateContent`. */
export interface GeminiResponse {
  candidates?: GeminiCandidate[];
  usageMetadata?: GeminiUsageMetadata;
  /** Present when the prompt itself was blocked (then there are no candidates). */
  promptFeedback?: { blockReason?: string };
  modelVersion?: string;
  responseId?: string;
}
