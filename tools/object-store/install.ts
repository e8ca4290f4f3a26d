/**
 * `npm run object-store:install`: makes sure an S3-compatible server is available for the S3
 * storage tests, a `weed` on PATH or SeaweedFS built into the machine's cache (only when this
 * recipe was never built here). Run by CI before the tests.
 */
import { findWeed, installWeed } from "./weed-build";

async function main(): Promise<void> {
  const weed = findWeed() ?? (await installWeed((message) => console.log(message)));
  console.log(`object store: SeaweedFS at ${weed}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
