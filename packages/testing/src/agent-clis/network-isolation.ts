import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { NAMESPACE_FORWARDER_SOURCE } from './namespace-forwarder.js';

/** How a CLI run is kept off the network. */
export type AgentCliIsolation =
  /** A private network namespace holding only `lo`: nothing can leave the machine. */
  | { kind: 'network-namespace'; description: string }
  /** The CLI runs in the host namespace; only its settings point it at loopback. */
  | { kind: 'loopback-only'; reason: string };

/** Set to `off` to run without a namespace (the fallback) even where one is possible. */
export const ISOLATION_ENV = 'CAIRN_AGENT_CLI_ISOLATION';

function findProgram(name: string, extraDirectories: string[]): string | undefined {
  const directories = [...(process.env.PATH ?? '').split(delimiter), ...extraDirectories];
  return directories.map((directory) => join(directory, name)).find((candidate) => existsSync(candidate));
}

let detected: { isolation: AgentCliIsolation; unshare?: string; ip?: string } | undefined;

function detect(): NonNullable<typeof detected> {
  if (process.env[ISOLATION_ENV] === 'off') {
    return { isolation: { kind: 'loopback-only', reason: `${ISOLATION_ENV}=off` } };
  }
  if (process.platform !== 'linux')
    return { isolation: { kind: 'loopback-only', reason: `not Linux (${process.platform})` } };
  if (process.getuid?.() !== 0)
    return { isolation: { kind: 'loopback-only', reason: 'not root (unshare -n needs root)' } };
  const unshare = findProgram('unshare', ['/usr/bin', '/bin']);
  const ip = findProgram('ip', ['/usr/sbin', '/sbin', '/usr/bin', '/bin']);
  if (unshare === undefined || ip === undefined) {
    const missing = [
      unshare === undefined ? 'unshare (util-linux)' : '',
      ip === undefined ? 'ip (iproute2)' : '',
    ]
      .filter(Boolean)
      .join(' and ');
    return { isolation: { kind: 'loopback-only', reason: `${missing} not found` } };
  }
  // Root alone is not enough inside some containers: try it once.
  const probe = spawnSync(unshare, ['-n', '--', ip, 'link', 'set', 'lo', 'up'], { encoding: 'utf8' });
  if (probe.status !== 0) {
    const why = (probe.stderr || probe.error?.message || `exit ${probe.status}`).trim();
    return { isolation: { kind: 'loopback-only', reason: `unshare -n failed: ${why}` } };
  }
  return { isolation: { kind: 'network-namespace', description: 'unshare -n' }, unshare, ip };
}

/** Whether this machine can run a CLI in a private network namespace (checked once per process). */
export function agentCliIsolation(): AgentCliIsolation {
  detected ??= detect();
  return detected.isolation;
}

/** The command that runs `command` inside a private network namespace whose `127.0.0.1:<port>` leads to `socketPath`. */
export function isolatedCommand(
  command: string,
  args: readonly string[],
  bridge: { socketPath: string; port: number },
): { command: string; args: string[] } {
  detected ??= detect();
  const { unshare, ip } = detected;
  if (unshare === undefined || ip === undefined) {
    throw new Error(`agent CLI isolation is not available: ${agentCliIsolation().kind}`);
  }
  return {
    command: unshare,
    args: [
      '-n',
      '--',
      '/bin/sh',
      '-c',
      `"${ip}" link set lo up && exec "$@"`,
      'sh',
      process.execPath,
      '--input-type=module',
      '-e',
      NAMESPACE_FORWARDER_SOURCE,
      bridge.socketPath,
      String(bridge.port),
      command,
      ...args,
    ],
  };
}

let noted = false;

/** Says once per process on stderr that runs are not isolated, and why. */
export function noteIsolationFallback(isolation: AgentCliIsolation): void {
  if (isolation.kind !== 'loopback-only' || noted) return;
  noted = true;
  process.stderr.write(
    `agent CLIs run WITHOUT a private network namespace (${isolation.reason}); only their settings keep them on loopback\n`,
  );
}
