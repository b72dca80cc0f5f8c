import type { QueryResult, QueryResultRow } from 'pg';

/** A pool or a checked-out client: what a single statement needs. */
export interface Queryable {
  query<R extends QueryResultRow>(text: string, values?: unknown[]): Promise<QueryResult<R>>;
}
