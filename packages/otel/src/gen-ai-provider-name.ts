// Cairn's adapter names as the GenAI conventions' well-known `gen_ai.provider.name` values; a name
// not listed (a custom adapter's) is passed on as it is.
const WELL_KNOWN: Readonly<Record<string, string>> = {
  openai: 'openai',
  'openai-responses': 'openai',
  'azure-openai': 'azure.ai.openai',
  anthropic: 'anthropic',
  gemini: 'gcp.gemini',
  'gemini-vertex': 'gcp.vertex_ai',
  vertex: 'gcp.vertex_ai',
  bedrock: 'aws.bedrock',
  mistral: 'mistral_ai',
  groq: 'groq',
  deepseek: 'deepseek',
  xai: 'x_ai',
  perplexity: 'perplexity',
  cohere: 'cohere',
};

/** `gen_ai.provider.name` for a Cairn provider name (`ModelAdapter.provider`). */
export function genAiProviderName(provider: string): string {
  return WELL_KNOWN[provider] ?? provider;
}
