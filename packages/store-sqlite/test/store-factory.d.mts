import type { StoreFactory } from '@cairn/storage/testkit';

export declare const createLocation: StoreFactory['createLocation'];
export declare const openStore: StoreFactory['openStore'];
export declare const destroyLocation: NonNullable<StoreFactory['destroyLocation']>;
