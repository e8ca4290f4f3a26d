/**
 * `npm run engine:install`: makes sure a development database engine is available, a mongod
 * on PATH or FerretDB built into the machine's cache (only when this recipe was never built
 * here). Run by CI before the tests; the launcher would otherwise build it on first start.
 */
import { findExecutable } from "./executables";
import { findFerretdb, installFerretdb } from "./ferretdb-build";

async function main(): Promise<void> {
  const mongod = findExecutable("mongod");
  if (mongod) return console.log(`engine: mongod at ${mongod}`);
  const ferretdb = findFerretdb() ?? (await installFerretdb((message) => console.log(message)));
  console.log(`engine: FerretDB at ${ferretdb}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
