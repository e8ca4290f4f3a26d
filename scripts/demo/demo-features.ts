import type { Connection } from "mongoose";
import type { Config } from "../../src/config";
import { ensureIndexes } from "../../src/db/indexes";
import { migrateDatabase } from "../../src/db/migrations";
import { createLogger } from "../../src/logger";
import { resolveJwtSecret } from "../../src/modules/auth/jwt-secret";
import { createServices } from "../../src/services";
import { callerOf } from "./demo-callers";
import { seedDemoEvents, seedDemoNews } from "./demo-content";
import { seedDemoPeople } from "./demo-onboarding";

export interface DemoFeaturesResult {
  events: number;
  news: number;
  people: number;
  interviewers: number;
}

/**
 * Everything past the members and offices: events with pictures, news, members part-way
 * through onboarding and certified chaplains, made through the service's own services (the
 * ones its routes call), so each record is what a user of the service would have made. What an
 * earlier run made (an event's name, a post's title, a persona's account) is not made again.
 */
export async function seedDemoFeatures(
  connection: Connection,
  config: Config,
  options: { adminId: string; password: string },
): Promise<DemoFeaturesResult> {
  const log = createLogger({ ...config, logLevel: "warn" });
  const composition = createServices(
    connection,
    config,
    resolveJwtSecret(config.jwtSecret, config.dataDir),
    log,
  );
  try {
    // As a start of the service would: the default interviewers and courses, every index.
    await migrateDatabase(connection, composition.migrations, log);
    await ensureIndexes(composition.models, log);
    const { services } = composition;
    const adminUser = await composition.userRepository.findById(options.adminId);
    if (!adminUser) throw new Error("The demo's administrator is gone");
    const admin = callerOf(adminUser);
    const events = await seedDemoEvents(services, admin);
    const people = await seedDemoPeople(services, composition.userRepository, admin, {
      password: options.password,
      bcryptCost: config.bcryptCost,
      noticeVersion: "2026-01",
    });
    const news = await seedDemoNews(services, admin, people.sworn);
    const interviewers = (await services.interviewers.offers()).length;
    return { events, news, people: people.added, interviewers };
  } finally {
    await composition.close();
  }
}
