import { createCommandProcessor } from './command-processor.js';
import { createContentSearchProcessor } from './content-search-processor.js';
import { createDirectoryListProcessor } from './directory-list-processor.js';
import { createEditFileProcessor } from './file-edit-processor.js';
import { singleEditOf } from './file-edits.js';
import { globProcessor, readFileProcessor, writeFileProcessor } from './shared-tool-processors.js';
import type { ToolProcessor } from './tool-call-view.js';

/** Cairn's own tools. */
export const cairnToolProcessors: readonly ToolProcessor[] = [
  readFileProcessor,
  writeFileProcessor,
  createEditFileProcessor({ toolNames: ['edit_file'], editsOf: singleEditOf }),
  createDirectoryListProcessor(['list_dir']),
  globProcessor,
  createContentSearchProcessor({ toolNames: ['grep'], listsFilesByDefault: false }),
  createCommandProcessor(['run_command']),
];
