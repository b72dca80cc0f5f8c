import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { exitCodeFor, formatErrorLine } from '@cairn/connect';
import { type Logger, pino } from 'pino';
import { runClusterPrimary } from '../cluster/run-cluster-primary.js';
import { readServerConfig } from '../config/read-server-config.js';
import type { ServerConfig } from '../config/server-config.js';
import { startServer } from '../main/start-server.js';
import { serverProgram } from './server-program.js';

const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

// The Vite build sits beside the compiled server (dist/web); a source checkout without it has no page.
const builtWebRoot = fileURLToPath(new URL('../web', import.meta.url));

/** `cairn-server …`: configure, start, and drain on SIGTERM / SIGINT. Resolves with the exit code. */
export async function runServerCli(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  let exitCode = 0;
  const program = serverProgram(packageJson.version, async (flags) => {
    const config = readServerConfig(flags, env, {
      cwd: process.cwd(),
      ...(existsSync(`${builtWebRoot}/index.html`) ? { webRoot: builtWebRoot } : {}),
    });
    const logger = pino({ level: config.logLevel, base: { service: 'cairn-server' } });
    if (config.workers > 1) {
      exitCode = await runCluster(config, logger);
      return;
    }
    const server = await startServer(config, env, logger);
    logger.info(
      {
        url: server.url,
        store: config.store,
        model: `${server.model.provider} ${server.model.modelId}`,
        modelFrom: server.model.source,
        auth: config.apiToken === undefined ? 'none (--insecure-local)' : 'bearer',
        web: config.webRoot !== undefined,
      },
      `cairn-server listening on ${server.url}`,
    );
    exitCode = await untilSignal(async (signal, again) => {
      logger.info(
        { signal, gracePeriodMs: config.gracePeriodMs },
        'draining: no new turns, waiting for running ones',
      );
      // A second signal means "now": running turns are aborted at once (and still store their abort).
      again.then(() => server.abortNow());
      const { abortedTurns } = await server.shutdown();
      logger.info({ abortedTurns }, 'stopped');
      return 0;
    });
  });
  program.exitOverride();
  try {
    await program.parseAsync(argv);
    return exitCode;
  } catch (error) {
    if (error instanceof Error && 'exitCode' in error && typeof error.exitCode === 'number') {
      return error.exitCode; // commander already printed help, the version or its own error
    }
    process.stderr.write(`${formatErrorLine('cairn-server', error)}\n`);
    return exitCodeFor(error);
  }
}

/** `--workers N`: the primary of N workers serving the port; it drains them all on a signal. */
async function runCluster(config: ServerConfig, logger: Logger): Promise<number> {
  const cluster = await runClusterPrimary({ config, logger });
  logger.info(
    {
      url: cluster.url,
      store: config.store,
      workers: config.workers,
      model: cluster.model,
      modelFrom: cluster.modelFrom,
      auth: config.apiToken === undefined ? 'none (--insecure-local)' : 'bearer',
      web: config.webRoot !== undefined,
    },
    `cairn-server listening on ${cluster.url} (${config.workers} workers)`,
  );
  return untilSignal(async (signal, again) => {
    logger.info(
      { signal, gracePeriodMs: config.gracePeriodMs, workers: config.workers },
      'draining every worker: no new turns, waiting for running ones',
    );
    again.then(() => cluster.abortNow());
    const { abortedTurns } = await cluster.shutdown();
    logger.info({ abortedTurns }, 'stopped');
    return 0;
  });
}

/** Waits for SIGTERM or SIGINT, then runs `onSignal`; `again` resolves on a second signal. */
function untilSignal(onSignal: (signal: string, again: Promise<void>) => Promise<number>): Promise<number> {
  return new Promise((resolve, reject) => {
    const first = (signal: string) => {
      process.off('SIGTERM', first).off('SIGINT', first);
      const again = new Promise<void>((resolveAgain) => {
        process.once('SIGTERM', () => resolveAgain()).once('SIGINT', () => resolveAgain());
      });
      onSignal(signal, again).then(resolve, reject);
    };
    process.on('SIGTERM', first).on('SIGINT', first);
  });
}
