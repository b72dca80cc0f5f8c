export declare const LOADED_MACHINE_FACTOR: number;
export declare function packagesAtOnce(): number;
export declare function timeoutFactor(): number;
export declare function scaledTimeout(ms: number): number;
export declare function propertyTimeout(ms: number): number;
export declare function workersPerPackage(): number;
