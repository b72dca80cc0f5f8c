import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchMessage } from '@cairn/bench';

const { createFsConversationStore } = await import(process.env.DIST ?? '../dist/index.js');
const root = mkdtempSync(join(tmpdir(), 'zz-conc-'));
const sizes = [300, 1200, 4000, 800];
let id = 0;
const msg = () => benchMessage(`cc${id}`, sizes[id++ % sizes.length]);
for (const durability of (process.argv[2] ?? 'none,append').split(',')) {
  const store = createFsConversationStore({ rootDir: join(root, durability), durability });
  await Promise.all(Array.from({ length: 100 }, (_, i) => store.append(`c${i}`, [msg()])));
  const per = [];
  for (let round = 0; round < (+process.env.ROUNDS || 5); round++) {
    const cpu = process.cpuUsage();
    const t = performance.now();
    await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        for (let k = 0; k < 10; k++) await store.append(`c${i}`, [msg()]);
      }),
    );
    const ms = performance.now() - t;
    const c = process.cpuUsage(cpu);
    per.push(`${((1000 / ms) * 1000).toFixed(0)}/s cpu ${((c.user + c.system) / 1000).toFixed(0)}µs/append`);
  }
  console.log(durability, per.join(' | '));
  await store.close();
}
rmSync(root, { recursive: true, force: true });
