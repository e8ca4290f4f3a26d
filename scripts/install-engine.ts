/**
 * Makes sure an embedded database engine is available: a mongod on PATH, or FerretDB built
 * into .tools/bin (only when missing). Run by CI before the tests; the service and the test
 * setup would otherwise do the same on first start.
 */
import { findExecutable } from "../src/db/executables";
import { findFerretdb, installFerretdb } from "../src/db/ferretdb-install";

async function main(): Promise<void> {
  const mongod = findExecutable("mongod");
  if (mongod) return console.log(`engine: mongod at ${mongod}`);
  const ferretdb = findFerretdb();
  if (ferretdb) return console.log(`engine: FerretDB at ${ferretdb}`);
  const installed = await installFerretdb((message) => console.log(message));
  console.log(`engine: FerretDB at ${installed}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
