/** Builds the package in `packageDir` (default: the working directory) if its dist is stale. */
export declare function ensurePackageBuilt(packageDir?: string): void;
export declare function setup(): void;
