import type { OfferedModel } from './api-client.js';

/** Which of the server's models answers the next turns; shown only when there is a choice. */
export function ModelPicker({
  models,
  chosen,
  onChoose,
}: {
  models: readonly OfferedModel[];
  chosen: string | undefined;
  onChoose(id: string): void;
}) {
  if (models.length < 2) return null;
  const fallback = models.find((model) => model.default)?.id;
  return (
    <select
      class="model-picker"
      aria-label="Model"
      value={chosen ?? fallback}
      onChange={(event) => onChoose(event.currentTarget.value)}
    >
      {models.map((model) => (
        <option key={model.id} value={model.id}>
          {model.default ? `${model.id} (default)` : model.id}
        </option>
      ))}
    </select>
  );
}
