/**
 * The public events page of issue 41 (point 8): GET /events/public as the home page asks for
 * it (upcoming first), through REST, through the hand-written floor (floor-server.ts), and
 * revalidated with If-None-Match, at the connections a busy public page sees.
 */
import { MongoClient } from "mongodb";
import { clientOptionsFor } from "../src/db/connection";
import { searchableText } from "../src/db/search-text";
import { uuidv7 } from "../src/db/uuid";
import { databaseOf } from "./dataset";
import type { Scenario, Session } from "./scenarios";

/** Events in every benchmark database: a few years of an active organisation's calendar. */
export const BENCH_EVENTS = 2_000;
export const PUBLIC_READ_CONNECTIONS = 50;
/** The home page's query. */
export const EVENTS_QUERY = "/events/public?sortBy=startsAt&sortOrder=asc&limit=10";

const CATEGORIES = ["CONFERENCE", "OUTREACH", "TRAINING", "WORSHIP", "FELLOWSHIP", "PRAYER"];
const PLACES = ["Cebu City", "Quezon City", "Davao City", "Iloilo City", "Baguio", "Tacloban"];

/**
 * Tops the database of `members` members up to BENCH_EVENTS events (one in ten PRIVATE),
 * written through the driver as the seed writes members: creating each through the API would
 * measure nothing the benchmark is about.
 */
export async function ensureEvents(uri: string, members: number): Promise<void> {
  const client = await MongoClient.connect(uri, clientOptionsFor(uri));
  try {
    const events = client.db(databaseOf(members)).collection<{ _id: string }>("events");
    const have = await events.countDocuments({});
    const start = Date.UTC(2026, 0, 5, 1);
    const records = Array.from({ length: Math.max(0, BENCH_EVENTS - have) }, (_, offset) => {
      const i = have + offset;
      const name = `${CATEGORIES[i % CATEGORIES.length]} gathering ${i}`;
      const location = PLACES[i % PLACES.length];
      const description = `Chaplains and families meet in ${location}; all are welcome.`;
      const startsAt = new Date(start + ((i * 7919) % BENCH_EVENTS) * 86_400_000 * 0.7);
      const now = new Date();
      return {
        _id: uuidv7(),
        name,
        nameKey: name.toLowerCase(),
        category: CATEGORIES[i % CATEGORIES.length],
        type: i % 3 === 0 ? "ONLINE" : "ONSITE",
        location,
        onlineLink: i % 3 === 0 ? "https://meet.example.org/chaplains" : null,
        meetingPlatform: i % 3 === 0 ? "GOOGLE_MEET" : null,
        meetingId: i % 3 === 0 ? `bench-${i}` : null,
        meetingPassword: i % 3 === 0 ? "bench-pass" : null,
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
  } finally {
    await client.close();
  }
}

/** The ETag of the page as the service answers it now, for the revalidating scenario. */
export async function currentEventsEtag(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/v1${EVENTS_QUERY}`);
  const etag = response.headers.get("etag");
  if (response.status !== 200 || !etag) throw new Error(`${EVENTS_QUERY}: ${response.status}`);
  return etag;
}

const publicEvents =
  (
    base: (session: Session) => string,
    headers: (session: Session) => Record<string, string>,
    expectedStatus?: number,
  ) =>
  (session: Session, connections: number) => ({
    url: `${base(session)}${EVENTS_QUERY}`,
    headers: headers(session),
    connections,
    ...(expectedStatus === undefined ? {} : { expectedStatus }),
  });

/** Taking turns, so that the REST/floor and 304/200 ratios compare loads under one drift. */
export const PUBLIC_EVENT_SCENARIOS: Scenario[] = [
  {
    name: "GET /events/public",
    via: "REST",
    group: "public events",
    audience: "public",
    spec: publicEvents(
      (s) => `${s.baseUrl}/api/v1`,
      () => ({}),
    ),
  },
  {
    name: "GET /events/public (hand-written)",
    via: "floor",
    group: "public events",
    audience: "public",
    spec: publicEvents(
      (s) => s.floorUrl,
      () => ({}),
    ),
  },
  {
    name: "GET /events/public with If-None-Match (304)",
    via: "REST",
    group: "public events",
    audience: "public",
    spec: publicEvents(
      (s) => `${s.baseUrl}/api/v1`,
      (s) => ({ "if-none-match": s.eventsEtag ?? "" }),
      304,
    ),
  },
];
