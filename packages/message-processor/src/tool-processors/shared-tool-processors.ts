import { createReadFileProcessor } from './file-read-processor.js';
import { createFileSearchProcessor } from './file-search-processor.js';
import { createWriteFileProcessor } from './file-write-processor.js';

// Gemini CLI and Cairn both have these tools (Gemini CLI says `file_path`, Cairn `path`): one
// processor serves both, so registering either set after the other changes nothing.
export const readFileProcessor = createReadFileProcessor(['read_file']);
export const writeFileProcessor = createWriteFileProcessor(['write_file']);
export const globProcessor = createFileSearchProcessor(['glob']);
