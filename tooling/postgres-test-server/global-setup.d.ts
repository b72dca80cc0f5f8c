/**
 * The part of vitest's `TestProject` this setup uses. Typed structurally so this package needs no
 * dependency on vitest; a `TestProject` fits.
 */
export interface ProvidingProject {
  provide(key: 'databaseUrl', value: string): void;
}

/**
 * vitest globalSetup: uses `DATABASE_URL` when set, otherwise starts a throwaway PostgreSQL server and
 * sets `DATABASE_URL` to it. Either way provides the URL as `inject('databaseUrl')`.
 */
export declare function setup(project: ProvidingProject): Promise<void>;

/** Stops the server `setup` started, if it started one. */
export declare function teardown(): Promise<void>;
