/** Writes schema/schema.graphql from the code-first schema (checked in; a test fails when stale). */
import "reflect-metadata";
import fs from "node:fs";
import path from "node:path";
import { printSchema } from "graphql";
import { buildAppSchema } from "../src/graphql/schema";

buildAppSchema()
  .then((schema) => {
    const file = path.join(__dirname, "..", "schema", "schema.graphql");
    fs.writeFileSync(file, `${printSchema(schema)}\n`);
    console.log(`wrote ${path.relative(process.cwd(), file)}`);
  })
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
