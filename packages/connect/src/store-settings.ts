/** The stores `openStore` opens: files under the data dir, one SQLite file, PostgreSQL. */
export const STORE_KINDS = ['fs', 'sqlite', 'postgres'] as const;

export type StoreKind = (typeof STORE_KINDS)[number];

export const isStoreKind = (value: string): value is StoreKind =>
  (STORE_KINDS as readonly string[]).includes(value);

/** Which store, and where. */
export interface StoreSettings {
  store: StoreKind;
  /** Where the fs store (`<dataDir>/store`) and the SQLite file (`<dataDir>/conversations.db`) live. */
  dataDir: string;
  /** PostgreSQL only: a `postgres://` connection string. */
  databaseUrl?: string | undefined;
}
