/**
 * Lints the OpenAPI document with Redocly's recommended rules: `npm run openapi:lint -- <file
 * or URL>` (default: the running service's http://localhost:4000/api/v1/openapi.json). Prints
 * every problem as JSON lines and exits 1 when any is an error; warnings are in
 * docs/decisions.md.
 */
import fs from "node:fs";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { runWhenMain } from "./script-runner";

export interface LintProblem {
  severity: string;
  rule: string;
  message: string;
  pointer?: string;
}

export async function lintOpenApi(source: string): Promise<LintProblem[]> {
  const config = await createConfig({ extends: ["recommended"] });
  const problems = await lintFromString({ source, absoluteRef: "openapi.json", config });
  return problems.map((problem) => ({
    severity: problem.severity,
    rule: problem.ruleId,
    message: problem.message,
    pointer: problem.location[0]?.pointer,
  }));
}

async function readSource(where: string): Promise<string> {
  if (!/^https?:\/\//.test(where)) return fs.readFileSync(where, "utf8");
  const response = await fetch(where);
  if (!response.ok) throw new Error(`GET ${where}: ${response.status}`);
  return response.text();
}

runWhenMain(module, async () => {
  const where = process.argv[2] ?? "http://localhost:4000/api/v1/openapi.json";
  const problems = await lintOpenApi(await readSource(where));
  for (const problem of problems) console.log(JSON.stringify(problem));
  const errors = problems.filter((problem) => problem.severity === "error").length;
  console.error(`${errors} errors, ${problems.length - errors} warnings`);
  if (errors > 0) process.exit(1);
});
