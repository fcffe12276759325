/** A row as the stores read it: times as ISO 8601 strings (UTC), whatever the database. */
export type Row = Record<string, string | number | null>;

/**
 * The few calls the newsletter's repository makes of a database, with `$1, $2, ...` placeholders
 * in both dialects. The SQL it runs is written once, in the subset SQLite and PostgreSQL share
 * (`ON CONFLICT`, `RETURNING`); each adapter turns its own values into this shape.
 */
export interface Sql {
  /** The rows a statement returns. */
  all(statement: string, params?: readonly (string | number | null)[]): Promise<Row[]>;
  /** How many rows a statement changed. */
  run(statement: string, params?: readonly (string | number | null)[]): Promise<number>;
}
