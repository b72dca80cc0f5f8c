// The converters moved to @cairn/agent-cli, which installs no vendor SDK. This subpath re-exports
// the same functions (not copies) for one minor version, each marked so editors flag the old import.
import * as geminiCli from '@cairn/agent-cli/gemini-cli';

/** @deprecated Import from `@cairn/agent-cli/gemini-cli`; this subpath is removed in the next minor version. */
export const convertGeminiCliResult = geminiCli.convertGeminiCliResult;
/** @deprecated Import from `@cairn/agent-cli/gemini-cli`; this subpath is removed in the next minor version. */
export const convertGeminiCliStream = geminiCli.convertGeminiCliStream;
/** @deprecated Import from `@cairn/agent-cli/gemini-cli`; this subpath is removed in the next minor version. */
export const createGeminiCliConverter = geminiCli.createGeminiCliConverter;
/** @deprecated Import from `@cairn/agent-cli/gemini-cli`; this subpath is removed in the next minor version. */
export type GeminiCliResultOptions = geminiCli.GeminiCliResultOptions;
/** @deprecated Import from `@cairn/agent-cli/gemini-cli`; this subpath is removed in the next minor version. */
export type GeminiCliConverter = geminiCli.GeminiCliConverter;
/** @deprecated Import from `@cairn/agent-cli/gemini-cli`; this subpath is removed in the next minor version. */
export type GeminiCliConverterOptions = geminiCli.GeminiCliConverterOptions;
/** @deprecated Import from `@cairn/agent-cli/gemini-cli`; this subpath is removed in the next minor version. */
export type Clock = geminiCli.Clock;
