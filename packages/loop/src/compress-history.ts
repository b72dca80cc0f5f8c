import { CairnError, type LoopCompressionPipeline, type ModelMessage } from '@cairn/core';

/**
 * Before a model call: when the pipeline says the request is too big, compresses the
 * history before `loopStartIndex` in place and returns where the loop's own messages now start.
 * A pipeline that touched the loop's own messages is refused: they must reach the model intact.
 */
export async function compressHistory(
  pipeline: LoopCompressionPipeline,
  messages: ModelMessage[],
  loopStartIndex: number,
): Promise<number> {
  if (!pipeline.shouldCompress(messages)) return loopStartIndex;
  const result = await pipeline.compressHistoricalMessages(messages, loopStartIndex);
  const start = result.newLoopStartIndex;
  const own = messages.length - loopStartIndex;
  const kept =
    Number.isInteger(start) &&
    start >= 0 &&
    result.messages.length - start === own &&
    result.messages.slice(start).every((message, index) => message === messages[loopStartIndex + index]);
  if (!kept) {
    throw new CairnError(
      'INVALID_ARGUMENT',
      `The compression pipeline changed the running loop's messages (from index ${loopStartIndex} on); it may only compress what comes before them.`,
    );
  }
  // Copied first: a pipeline with nothing to do may hand back the very array it was given.
  const compressed = [...result.messages];
  messages.length = 0;
  for (const message of compressed) messages.push(message);
  return start;
}
