import pg from 'pg';
import { serverStatementName } from './prepared.js';

/**
 * A PostgreSQL client that runs a prepared query's statement (prepared.ts) under its name, so that
 * each connection parses and plans it once, keeps it, and then only binds and runs it. Other
 * statements go unnamed, planned at each run. The pool opens its connections with this class.
 */
export class NamedStatementClient extends pg.Client {
  override query(config: any, values?: any, callback?: any): any {
    const name = typeof config === 'string' ? serverStatementName(config) : undefined;
    if (name) return super.query({ name, text: config, values }, callback);
    return super.query(config, values, callback);
  }
}
