/** Types of postgres.cjs for the TypeScript tests. */
export interface TestPostgres {
  database: { host: string; port: number; user: string; password: string; database: string };
  url: string;
  createDatabase(name: string): string;
  execute(sql: string, on?: string): string;
  query<Row = Record<string, unknown>>(sql: string, on?: string): Row[];
  stop(): Promise<void>;
  start(): Promise<void>;
}
export function postgresBin(): string;
export function startPostgres(dir: string, options?: { database?: string }): Promise<TestPostgres>;
