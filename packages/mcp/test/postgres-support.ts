/** One throwaway Postgres per jest run of the store's tests (test/support/postgres.cjs), a database per use. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPostgres, type TestPostgres } from "../../../test/support/postgres.cjs";

let cluster: Promise<{ postgres: TestPostgres; dir: string }> | undefined;
let databases = 0;

/** The run's cluster, started on first use. */
export function testPostgres(): Promise<TestPostgres> {
  cluster ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), "linkshort-mcp-postgres-"));
    return { postgres: await startPostgres(dir, { database: "linkshort" }), dir };
  })();
  return cluster.then((started) => started.postgres);
}

/** A fresh database in the run's cluster: its URL. */
export async function freshDatabase(): Promise<string> {
  databases += 1;
  return (await testPostgres()).createDatabase(`test_${process.pid}_${databases}`);
}

export async function stopTestPostgres(): Promise<void> {
  if (cluster === undefined) return;
  const { postgres, dir } = await cluster;
  await postgres.stop();
  rmSync(dir, { recursive: true, force: true });
  cluster = undefined;
}
