/**
 * Issue 39 point 4: an avatar may be a file of this service. An AVATAR upload becomes the
 * caller's avatar; PUT /users/current {avatar} takes the id or fileUrl of one's own AVATAR
 * upload, and refuses anyone else's or another purpose's with a 400 on `avatar`.
 */
import { applyAs, bearer, buildUser, minimalApplication } from "../support/factories";
import { rawDb } from "../support/raw-db";
import { useScenario } from "../support/scenario";
import { PDF, PNG, storageDir, upload } from "../support/file-samples";

const scenario = useScenario({ env: storageDir().env, users: { member: {}, other: {} } });

const currentAvatar = async (token: { token: string }) => {
  const { app } = scenario();
  const response = await app.http().get("/api/v1/users/current").set(bearer(token));
  return (response.body.data ?? response.body.user ?? response.body).avatar as string | null;
};

it("makes an AVATAR upload the caller's avatar, shown as a freshly signed link", async () => {
  const { app } = scenario();
  const user = await buildUser(app);
  const { body } = await upload(app, user, PNG, { purpose: "AVATAR" });
  const avatar = await currentAvatar(user);
  expect(avatar).toContain(`/api/v1/files/${body.data.id}?expires=`);
  const image = await app.http().get(avatar!.replace(/^https?:\/\/[^/]+/, ""));
  expect(image.status).toBe(200);
  expect(await rawDb(app).files.findById(body.data.id).lean()).toMatchObject({
    unnamedSince: null,
    attachedAt: expect.any(Date),
  });
});

it("takes one's own AVATAR upload by fileUrl, releases the one replaced, refuses others", async () => {
  const { app, member, other } = scenario();
  const first = (await upload(app, member, PNG, { purpose: "AVATAR" })).body.data;
  const second = (await upload(app, member, PNG, { purpose: "AVATAR" })).body.data;
  const put = (avatar: string | null, user = member) =>
    app.http().put("/api/v1/users/current").set(bearer(user)).send({ avatar });

  expect((await put(first.fileUrl)).status).toBe(200);
  expect(await currentAvatar(member)).toContain(first.id);
  expect(await rawDb(app).files.findById(second.id).lean()).toMatchObject({
    unnamedSince: expect.any(Date),
  });

  const document = (await upload(app, member, PDF, { purpose: "REQUIREMENT" })).body.data;
  for (const [ref, user] of [
    [document.id, member],
    [first.id, other],
    ["0190a0a0-0000-7000-8000-000000000000", member],
  ] as const) {
    const refused = await put(ref, user);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain("avatar");
  }
  expect(await currentAvatar(member)).toContain(first.id);

  expect((await put("https://example.org/me.png")).status).toBe(200);
  expect(await currentAvatar(member)).toBe("https://example.org/me.png");
});

it("takes the applicant's own uploaded photo as recentIdPhotoUrl, and no one else's", async () => {
  const { app, other } = scenario();
  const applicant = await buildUser(app);
  const photo = (await upload(app, applicant, PNG, { purpose: "REQUIREMENT" })).body.data;
  const othersPhoto = (await upload(app, other, PNG, { purpose: "REQUIREMENT" })).body.data;
  const refused = await app
    .http()
    .post("/api/v1/members/apply")
    .set(bearer(applicant))
    .send(minimalApplication({ recentIdPhotoUrl: othersPhoto.id }));
  expect(refused.status).toBe(400);
  expect(JSON.stringify(refused.body)).toContain("recentIdPhotoUrl");

  const record = await applyAs(app, applicant, { recentIdPhotoUrl: photo.fileUrl });
  expect(record.recentIdPhotoUrl).toContain(`/api/v1/files/${photo.id}?expires=`);
  const stored = await rawDb(app).members.findById(record.id).lean();
  expect(stored?.recentIdPhotoUrl).toBe(photo.id);
  expect(await rawDb(app).files.findById(photo.id).lean()).toMatchObject({ unnamedSince: null });
});
