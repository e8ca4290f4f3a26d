import mongoose, { type Connection } from "mongoose";

/** A collection of the tests that break the database under the driver (tests/db). */
const thingSchema = new mongoose.Schema({ _id: String, label: String });

export const thingsOf = (connection: Connection) => connection.model("Thing", thingSchema);

/** Milliseconds until the "before" thing reads back, or undefined when it still fails after `boundMs`. */
export async function msUntilReadable(things: ReturnType<typeof thingsOf>, boundMs: number) {
  const started = Date.now();
  while (Date.now() - started < boundMs) {
    const read = await things
      .findById("before")
      .lean()
      .catch(() => undefined);
    if (read) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return undefined;
}
