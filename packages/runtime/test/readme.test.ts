import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runReadmeExample } from '@cairn/vitest-config/readme-example';
import { describe, expect, it } from 'vitest';
import {
  readWorkflowFile,
  WORKFLOW_FORMAT_URL,
  WorkflowDefinitionSchema,
  WorkflowEdgeSchema,
  WorkflowNodeSchema,
  WorkflowPackageSchema,
} from '../src/runs/index.js';

const README = new URL('../README.md', import.meta.url);

describe('README', () => {
  it('runs the example and prints what it says', async () => {
    const { stdout, printed } = await runReadmeExample(README);
    expect(printed).toBeDefined();
    expect(stdout).toBe(printed);
  });

  it('runs the structured output example and prints what it says', async () => {
    const { stdout, printed } = await runReadmeExample(README, { section: 'Structured output' });
    expect(printed).toBeDefined();
    expect(stdout).toBe(printed);
  });

  it('runs the streaming example and prints what it says', async () => {
    const { stdout, printed } = await runReadmeExample(README, {
      section: 'Streaming and the AI SDK UI stream',
    });
    expect(printed).toBeDefined();
    expect(stdout).toBe(printed);
  });

  describe('Workflow files', () => {
    const workflowFiles = async () => {
      const readme = await readFile(README, 'utf8');
      return readme.slice(readme.indexOf('\n## Workflow files\n'));
    };

    it('has samples that readWorkflowFile accepts as they are written', async () => {
      const section = await workflowFiles();
      const samples = [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1] as string);
      const dir = await mkdtemp(join(tmpdir(), 'cairn-readme-workflows-'));
      const read = await Promise.all(
        samples.map(async (sample, index) => {
          const path = join(dir, `sample-${index}.yaml`);
          await writeFile(path, sample);
          return readWorkflowFile(path, { name: 'sample' });
        }),
      );
      expect(read.map((pkg) => [pkg.name, ...pkg.workflows.map((workflow) => workflow.id)])).toEqual([
        ['sample', 'review'],
        ['team', 'triage', 'release-notes'],
      ]);
      const review = read[0]?.workflows[0];
      expect(review?.edges.filter((edge) => edge.default === true)).toHaveLength(1);
      expect(review?.edges.some((edge) => edge.label !== undefined)).toBe(true);
    });

    it('names every field of the format in its table, and is where errors point', async () => {
      const table = (await workflowFiles())
        .split('\n')
        .filter((line) => line.startsWith('| `'))
        .join('\n');
      const fields = [
        ...Object.keys(WorkflowDefinitionSchema.shape),
        ...Object.keys(WorkflowNodeSchema.shape).map((key) => `nodes[].${key}`),
        ...Object.keys(WorkflowEdgeSchema.shape).map((key) => `edges[].${key}`),
        ...Object.keys(WorkflowPackageSchema.shape),
      ];
      for (const field of fields) expect(table, field).toContain(`\`${field}\``);
      expect(WORKFLOW_FORMAT_URL.endsWith('#workflow-files')).toBe(true);
    });
  });
});
