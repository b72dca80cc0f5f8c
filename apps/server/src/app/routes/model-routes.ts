import { createRoute, z } from '@hono/zod-openapi';
import type { RouteDeps } from '../route-deps.js';
import type { ServerApp } from '../server-env.js';

const ModelListSchema = z
  .object({
    models: z.array(
      z.object({
        id: z.string(),
        provider: z.string(),
        default: z.boolean().openapi({ description: 'What a turn that names no model uses' }),
      }),
    ),
  })
  .openapi('ModelList');

const listModelsRoute = createRoute({
  method: 'get',
  path: '/v1/models',
  summary: 'The models a turn may pick',
  description:
    'The server’s configured models (`--model`, the default, then `--models`): a turn names one with ' +
    '`model` (`POST …/messages?model=`, `POST …/regenerate?model=`, `POST /v1/chat` body `model`). Empty ' +
    'when the server offers no choice.',
  responses: {
    200: { description: 'The models', content: { 'application/json': { schema: ModelListSchema } } },
  },
});

/** `GET /v1/models`. */
export function registerModelRoutes(app: ServerApp, deps: Pick<RouteDeps, 'models'>): void {
  app.openapi(listModelsRoute, (c) =>
    c.json(
      {
        models: deps.models.map((model, index) => ({
          id: model.modelId,
          provider: model.provider,
          default: index === 0,
        })),
      },
      200,
    ),
  );
}
