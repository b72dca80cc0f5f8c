/** A model id lower-cased and without any `vendor/` or `models/` prefix: `openai/GPT-4o` → `gpt-4o`. */
export function bareModelId(model: string): string {
  const id = model.toLowerCase();
  return id.slice(id.lastIndexOf('/') + 1);
}
