import type { StoreFactory } from '@cairn/storage/testkit';
import type { SqliteDriverChoice } from '../dist/index.js';

/** A new location, opened by `driver` (the store's default when omitted). */
export declare function createLocation(
  driver?: SqliteDriverChoice,
): ReturnType<StoreFactory['createLocation']>;
export declare const openStore: StoreFactory['openStore'];
export declare const destroyLocation: NonNullable<StoreFactory['destroyLocation']>;
