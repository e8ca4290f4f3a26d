/**
 * Fills the configured database (the development engine under DATA_DIR by default, tools/dev-db/)
 * with demo data: `npm run seed:demo -- [members=1000] [--seed=N] [--fresh]`.
 */
import { isProductionEnvironment, loadConfig } from "../src/config";
import { resolveFieldCipher } from "../src/db/field-cipher";
import { runWhenMain, withDatabase } from "./script-runner";
import { DEMO_PASSWORD, seedDemo } from "./demo/demo-data";

interface SeedArguments {
  members: number;
  seed: number;
  fresh: boolean;
  /** Members, accounts and offices only: the benchmark's data, counted exactly. */
  membersOnly: boolean;
}

export function parseSeedArguments(argv: string[]): SeedArguments {
  const parsed: SeedArguments = {
    members: 1000,
    seed: 20261122,
    fresh: false,
    membersOnly: false,
  };
  for (const argument of argv) {
    if (argument === "--fresh") parsed.fresh = true;
    else if (argument === "--members-only") parsed.membersOnly = true;
    else if (argument.startsWith("--seed=")) parsed.seed = wholeNumber(argument.slice(7), "--seed");
    else parsed.members = wholeNumber(argument, "members");
  }
  return parsed;
}

function wholeNumber(text: string, name: string): number {
  if (!/^\d+$/.test(text)) throw new Error(`${name} must be a whole number, got "${text}"`);
  return Number(text);
}

async function main(): Promise<void> {
  const options = parseSeedArguments(process.argv.slice(2));
  if (isProductionEnvironment()) {
    throw new Error("Refusing to put demo data into a production database (NODE_ENV=production)");
  }
  const config = loadConfig();
  await withDatabase(config, async (connection) => {
    if (options.fresh) await connection.dropDatabase();
    const started = Date.now();
    const result = await seedDemo(connection, {
      members: options.members,
      seed: options.seed,
      bcryptCost: config.bcryptCost,
      cipher: resolveFieldCipher(config, config.dataDir),
      progress: (done, total) => {
        if (done % 10_000 === 0 || done === total) console.log(`  ${done}/${total} members`);
      },
    });
    // Loaded only now: it builds the whole service, which a refused run need not compile.
    if (options.membersOnly) {
      console.log(`seeded ${result.members} members and accounts into "${config.dbName}"`);
      return;
    }
    const { seedDemoFeatures } = await import("./demo/demo-features");
    const features = await seedDemoFeatures(connection, config, {
      adminId: result.reviewerId,
      password: DEMO_PASSWORD,
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `seeded ${result.members} members and accounts, ${result.branches} branches of service, ` +
        `${result.offices} new office titles with ${result.holders} holders ` +
        `into "${config.dbName}" in ${seconds} s; demo accounts sign in with ${DEMO_PASSWORD}`,
    );
    console.log(
      `added ${features.events} events and ${features.news} news posts with pictures, ` +
        `${features.people} members part-way through onboarding or certified; ` +
        `${features.interviewers} interviewers offer free slots`,
    );
    if (result.skipped > 0)
      console.log(
        `${result.skipped} of the ${options.members} demo people of seed ${options.seed} were ` +
          "there already from an earlier run: nothing was added for them (--seed=N for others)",
      );
  });
}

runWhenMain(module, main);
