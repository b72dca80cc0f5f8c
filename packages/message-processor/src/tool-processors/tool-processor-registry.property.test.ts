import { type JsonValue, ToolDetailsSchema } from '@cairn/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createToolProcessorRegistry } from './create-tool-processor-registry.js';
import type { ToolCallView, ToolProcessor } from './tool-call-view.js';

const registry = createToolProcessorRegistry();
const LINE_BREAK = /[\n\r\v\f\u2028\u2029]/;
const BUILT_IN_NAMES = [
  ...['Edit', 'MultiEdit', 'Write', 'Read', 'Bash', 'Glob', 'Grep', 'LS', 'WebFetch', 'TodoWrite', 'Task'],
  ...['replace', 'write_file', 'read_file', 'read_many_files', 'run_shell_command', 'glob'],
  ...['search_file_content', 'grep_search', 'list_directory', 'web_fetch', 'write_todos'],
  ...['edit_file', 'list_dir', 'grep', 'run_command'],
];
// Objects with the fields the built-ins read, holding anything, so their odd cases get exercised.
const inputArb = fc.oneof(
  fc.jsonValue(),
  fc.dictionary(
    fc.constantFrom(
      ...['file_path', 'path', 'dir_path', 'content', 'old_string', 'new_string', 'replace_all', 'edits'],
      ...['command', 'pattern', 'output_mode', 'url', 'prompt', 'todos', 'description', 'paths', 'include'],
    ),
    fc.oneof(fc.string(), fc.jsonValue()),
  ),
);
const structuredArb = fc.oneof(
  fc.jsonValue(),
  fc.dictionary(
    fc.constantFrom(
      ...['type', 'filePath', 'content', 'originalFile', 'originalFileContents', 'structuredPatch'],
      ...[
        'stdout',
        'stderr',
        'interrupted',
        'exitCode',
        'filenames',
        'numFiles',
        'mode',
        'numMatches',
        'error',
      ],
    ),
    fc.oneof(fc.string(), fc.jsonValue()),
  ),
);
const outputArb = fc.oneof(
  fc.string(),
  fc.constantFrom(
    'Found 3 files\n/a\n/b',
    '- /w/\n  - a\n',
    'Exit code 2',
    'File: a\nL1: x',
    '<tool_use_error>',
  ),
);
const callArb: fc.Arbitrary<ToolCallView> = fc.record(
  {
    toolName: fc.oneof(fc.constantFrom(...BUILT_IN_NAMES), fc.string()),
    toolUseId: fc.string(),
    input: inputArb as fc.Arbitrary<JsonValue>,
    output: outputArb,
    isError: fc.boolean(),
    status: fc.constantFrom('completed' as const, 'unfinished' as const),
    structured: structuredArb as fc.Arbitrary<JsonValue>,
    cwd: fc.oneof(fc.constant('/w'), fc.string()),
  },
  { requiredKeys: ['toolName', 'toolUseId', 'input', 'output', 'isError', 'status'] },
);

function expectOneLineSummary(summary: string): void {
  expect(summary.trim()).not.toBe('');
  expect(summary).not.toMatch(LINE_BREAK);
}

describe('ToolProcessorRegistry.describe', () => {
  it('never throws, and gives one non-empty line and valid details, the same each time', () => {
    fc.assert(
      fc.property(callArb, (call) => {
        const description = registry.describe(call);
        expectOneLineSummary(description.summary);
        if (description.details !== undefined)
          expect(ToolDetailsSchema.parse(description.details)).toBeDefined();
        expect(registry.describe(call)).toEqual(description);
      }),
      { numRuns: 2_000 },
    );
  });

  it('needs no fallback for the built-ins: they never throw themselves', () => {
    fc.assert(
      fc.property(callArb, (call) => {
        const processor = registry.get(call.toolName);
        if (processor === undefined) return;
        expect(typeof processor.summarize(call)).toBe('string');
        expect(typeof processor.describeFailure?.(call)).toBe('string');
        processor.details?.(call);
      }),
      { numRuns: 2_000 },
    );
  });

  it('falls back on the generic summary whatever a throwing processor is asked', () => {
    const throwing: ToolProcessor = {
      toolNames: BUILT_IN_NAMES,
      summarize: () => {
        throw new Error('bug');
      },
      describeFailure: () => {
        throw new Error('bug');
      },
    };
    const broken = createToolProcessorRegistry({ processors: [throwing] });
    const bare = createToolProcessorRegistry({ builtIns: false });
    fc.assert(
      fc.property(callArb, (call) => {
        const description = broken.describe(call);
        expectOneLineSummary(description.summary);
        expect(description).toEqual(bare.describe(call));
      }),
      { numRuns: 100 },
    );
  });
});
