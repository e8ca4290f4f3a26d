/**
 * No import cycles in the service, the benchmark or the tests (type-only imports count: a cycle
 * of types is still a tangle to read). madge with the project's own .madgerc, as
 * `npm run cycles` runs it.
 */
import fs from "node:fs";
import path from "node:path";

const root = path.join(__dirname, "..", "..");

interface MadgeResult {
  circular(): string[][];
}
// madge ships no type declarations: its documented API, typed to what this uses.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const madge = require("madge") as (paths: string[], config: object) => Promise<MadgeResult>;

it("finds no import cycle in src, bench or tests", async () => {
  const config = JSON.parse(fs.readFileSync(path.join(root, ".madgerc"), "utf8")) as object;
  const result = await madge(
    ["src", "bench", "tests"].map((folder) => path.join(root, folder)),
    { ...config, baseDir: root, tsConfig: path.join(root, "tsconfig.json") },
  );
  expect(result.circular()).toEqual([]);
}, 120_000);
