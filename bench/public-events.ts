/**
 * The public events page (issue 41): GET /events/public as the home page asks for it, through
 * REST, the floor and revalidated, at the connections a busy public page sees.
 */
import type { Db } from "mongodb";
import { searchableText } from "../src/db/search-text";
import { uuidv7 } from "../src/db/uuid";
import { publicPage } from "./scenario";

/** Events in the benchmark's database: a few years of an active organisation's calendar. */
const BENCH_EVENTS = 2_000;
/** The home page's query. */
const EVENTS_QUERY = "/events/public?sortBy=startsAt&sortOrder=asc&limit=10";

const CATEGORIES = ["CONFERENCE", "OUTREACH", "TRAINING", "WORSHIP", "FELLOWSHIP", "PRAYER"];
const PLACES = ["Cebu City", "Quezon City", "Davao City", "Iloilo City", "Baguio", "Tacloban"];

/** Tops the database up to BENCH_EVENTS events (one in ten PRIVATE), written as the seed writes. */
async function seedEvents(db: Db): Promise<void> {
  const events = db.collection<{ _id: string }>("events");
  const have = await events.countDocuments({});
  const start = Date.UTC(2026, 0, 5, 1);
  const records = Array.from({ length: Math.max(0, BENCH_EVENTS - have) }, (_, offset) => {
    const i = have + offset;
    const category = CATEGORIES[i % CATEGORIES.length];
    const name = `${category} gathering ${i}`;
    const location = PLACES[i % PLACES.length];
    const online = i % 3 === 0;
    const description = `Chaplains and families meet in ${location}; all are welcome.`;
    const startsAt = new Date(start + ((i * 7919) % BENCH_EVENTS) * 86_400_000 * 0.7);
    const now = new Date();
    return {
      _id: uuidv7(),
      name,
      nameKey: name.toLowerCase(),
      category,
      type: online ? "ONLINE" : "ONSITE",
      location,
      onlineLink: online ? "https://meet.example.org/chaplains" : null,
      meetingPlatform: online ? "GOOGLE_MEET" : null,
      meetingId: online ? `bench-${i}` : null,
      meetingPassword: online ? "bench-pass" : null,
      description,
      thumbnailFileId: null,
      organizer: "The board",
      startsAt,
      endsAt: new Date(startsAt.getTime() + 3 * 3_600_000),
      status: "SCHEDULED",
      visibility: i % 10 === 9 ? "PRIVATE" : "PUBLIC",
      searchText: searchableText(name, description, location),
      createdAt: now,
      updatedAt: now,
    };
  });
  if (records.length > 0) await events.insertMany(records);
}

export const PUBLIC_EVENT_SCENARIOS = publicPage(
  EVENTS_QUERY,
  "public events",
  [
    "GET /events/public",
    "GET /events/public (hand-written)",
    "GET /events/public with If-None-Match (304)",
  ],
  seedEvents,
);
