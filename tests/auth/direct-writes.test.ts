/**
 * Accounts and sessions written by another program, straight into the database, are what the
 * very next request on every instance sees: nothing about them is kept in a process.
 */
import bcrypt from "bcryptjs";
import jwt from "jsonwebtoken";
import { MongoClient, type Db } from "mongodb";
import { clientOptionsFor } from "../../src/db/connection";
import { uuidv7 } from "../../src/db/uuid";
import { bearer, buildAdmin, buildUser, login, uniqueEmail } from "../support/factories";
import { startTwoInstances, type TestApp } from "../support/test-app";

let first: TestApp;
let second: TestApp;
let closeBoth: () => Promise<void>;
let client: MongoClient;
let db: Db;

beforeAll(async () => {
  ({ first, second, closeBoth } = await startTwoInstances());
  const uri = process.env.TEST_MONGODB_URI!;
  client = await new MongoClient(uri, clientOptionsFor(uri)).connect();
  db = client.db(first.config.dbName);
});
afterAll(async () => {
  await client?.close();
  await closeBoth?.();
});

// String ids: the driver's default typing expects ObjectIds.
const users = () => db.collection<{ _id: string } & Record<string, unknown>>("users");
const sessions = () => db.collection<{ _id: string } & Record<string, unknown>>("sessions");

const both = () => [first, second];
const currentUser = (app: TestApp, user: { token: string }) =>
  app.http().get("/api/v1/users/current").set(bearer(user));
const listUsers = (app: TestApp, user: { token: string }) =>
  app.http().get("/api/v1/users").set(bearer(user));

/** Each instance has answered a request with the token, so anything it kept would be warm. */
async function usedOnBoth(user: { token: string }): Promise<void> {
  for (const app of both()) expect((await currentUser(app, user)).status).toBe(200);
}

test("a session revoked in the database is refused by both instances", async () => {
  const user = await buildUser(first);
  await usedOnBoth(user);
  const { sid } = jwt.decode(user.token) as { sid: string };
  const revoked = await sessions().updateOne(
    { _id: sid },
    { $set: { revokedAt: new Date(), revokedReason: "operator" } },
  );
  expect(revoked.modifiedCount).toBe(1);
  for (const app of both()) {
    const response = await currentUser(app, user);
    expect(response.status).toBe(401);
    expect(response.body.code).toBe("UNAUTHENTICATED");
  }
});

test("an account deleted in the database is refused by both instances", async () => {
  const user = await buildUser(first);
  await usedOnBoth(user);
  expect((await users().deleteOne({ _id: user.id })).deletedCount).toBe(1);
  for (const app of both()) {
    const response = await currentUser(app, user);
    expect(response.status).toBe(401);
    expect(response.body.code).toBe("UNAUTHENTICATED");
  }
});

test("a role changed in the database decides the next request on both instances", async () => {
  const admin = await buildAdmin(first);
  for (const app of both()) expect((await listUsers(app, admin)).status).toBe(200);
  await users().updateOne({ _id: admin.id }, { $set: { role: "MEMBER" } });
  for (const app of both()) {
    const response = await listUsers(app, admin);
    expect(response.status).toBe(403);
    expect(response.body.code).toBe("FORBIDDEN");
  }
  await users().updateOne({ _id: admin.id }, { $set: { role: "ADMIN" } });
  for (const app of both()) expect((await listUsers(app, admin)).status).toBe(200);
});

test("an account inserted in the database signs in on both instances", async () => {
  const email = uniqueEmail("inserted");
  const password = "Inserted#Pass1";
  const now = new Date();
  await users().insertOne({
    _id: uuidv7(),
    name: "Inserted Elsewhere",
    email,
    passwordHash: await bcrypt.hash(password, 4),
    avatar: null,
    role: "MEMBER",
    isEmailVerified: true,
    mfaEnabled: false,
    createdAt: now,
    updatedAt: now,
  });
  for (const app of both()) {
    const signedIn = await login(app, email, password);
    const response = await currentUser(app, signedIn);
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({ email, name: "Inserted Elsewhere" });
  }
});
