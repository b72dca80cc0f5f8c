import type { ConversationStore, JsonValue } from '@cairn/core';

export declare function createLocation(): Promise<JsonValue>;
export declare function openStore(location: JsonValue): Promise<ConversationStore>;
export declare function destroyLocation(location: JsonValue): Promise<void>;
export declare const CONTENDED_LOCK_TIMEOUT_MS: number;
