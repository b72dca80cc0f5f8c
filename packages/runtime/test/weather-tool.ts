import { defineTool } from '@cairn/loop';
import { z } from 'zod';

/** The tool the runtime's tests let the model call. */
export const weatherTool = defineTool({
  name: 'get_weather',
  description: 'The weather in a city',
  category: 'web',
  // A lookup: after a crash mid-call it is looked up again (the ledger stores no intent for it).
  idempotent: true,
  input: z.object({ city: z.string() }),
  execute: ({ city }) => `${city}: -3 °C`,
});
