/** The text-bearing fields of a Chat Completions message or stream delta, compatible servers' included. */
export interface OpenAIMessageFields {
  content?: string | null;
  refusal?: string | null;
  /** DeepSeek, vLLM and llama.cpp send reasoning here… */
  reasoning_content?: unknown;
  /** …Ollama, OpenRouter and newer vLLM here. */
  reasoning?: unknown;
}

/**
 * The reply text. A refusal (OpenAI's structured-output refusal, sent instead of content) is the
 * model's answer too, and without it the message would have neither text nor tool calls.
 */
export function openAIText(fields: OpenAIMessageFields): string {
  return (fields.content ?? '') + (fields.refusal ?? '');
}

/** The reasoning text OpenAI-compatible servers add; api.openai.com never sends any. */
export function openAIReasoning(fields: OpenAIMessageFields): string {
  const reasoning = fields.reasoning_content ?? fields.reasoning;
  return typeof reasoning === 'string' ? reasoning : '';
}
