/*
 * The public page's personal data (docs/privacy.md): certificates, public records (drafts
 * too), follows, the banner, church and education are in the subject-access export, and erasure
 * removes them, including the follows of an erased member's page and by an erased follower.
 */
import { bearer, buildUser, type TestUser } from "../support/factories";
import { rawDb } from "../support/raw-db";
import { storageDir } from "../support/file-samples";
import { useScenario } from "../support/scenario";
import { approvedMember, as, choose, publicPage, uploaded } from "../support/profile-fixtures";

const storage = storageDir();
const scenario = useScenario({ env: storage.env });

async function pageOf() {
  const { app, admin } = scenario();
  const member = await approvedMember(app, admin);
  const send = as(app, member.user);
  const banner = await uploaded(app, member.user, "PUBLIC_RECORD");
  await send("put", "/members/current/profile-banner", {
    profileBannerUrl: banner.id,
    profileBannerPositionY: 60,
  }).expect(200);
  await send("put", "/members/current/education", { elementarySchool: "Export Elementary" }).expect(
    200,
  );
  const certificate = await send("post", "/members/current/certificates", {
    title: "Exported course",
    certificateUrl: (await uploaded(app, member.user, "CERTIFICATE")).id,
    issuedAt: "2024-01-01",
  });
  const draft = await send("post", "/members/current/public-records", {
    title: "Draft record",
    shortDescription: "<p>Not yet</p>",
    type: "RECOGNITION",
    eventAt: "2024-03-03",
    location: "Iloilo",
    status: "DRAFT",
  });
  await choose(app, member.user, { listed: true });
  return { member, banner, certificate: certificate.body.data, draft: draft.body.data };
}

/** A link to the file another link names (its signature and expiry may differ). */
const sameFile = (url: string) => expect.stringContaining(url.slice(0, url.indexOf("?") + 1));

/** `member` follows another listed member, and a new account follows `member`: the other. */
async function followBothWays(member: Awaited<ReturnType<typeof approvedMember>>) {
  const { app, admin } = scenario();
  const other = await approvedMember(app, admin);
  await choose(app, other.user, { listed: true });
  const follow = (key: string, by: TestUser) =>
    app.http().post(`/api/v1/members/public/${key}/follow`).set(bearer(by)).expect(200);
  await follow(other.uniqueId, member.user);
  await follow(member.uniqueId, await buildUser(app));
  return other;
}

it("the export lists the page's certificates, records, banner, education and follows", async () => {
  const { app, admin } = scenario();
  const { member, banner, certificate, draft } = await pageOf();
  const followed = await followBothWays(member);

  const own = await as(app, member.user)("get", "/users/current/export");
  expect(own.status).toBe(200);
  const data = own.body.data;
  expect(data.profile).toEqual({
    // Links are signed afresh on every read: the same file, whatever the expiry.
    certificates: [{ ...certificate, certificateUrl: sameFile(certificate.certificateUrl) }],
    publicRecords: [draft],
    following: [{ memberId: followed.id, followedAt: expect.any(String) }],
    followerCount: 1,
  });
  expect(data.memberships[0]).toMatchObject({
    elementarySchool: "Export Elementary",
    profileBannerUrl: expect.stringContaining(`/files/${banner.id}?`),
    profileBannerPositionY: 60,
    publicProfile: expect.objectContaining({ listed: true, showChurch: false }),
  });

  // An administrator answering the request gets the same, and the read is audited.
  const forAdmin = await app
    .http()
    .get(`/api/v1/users/${member.user.id}/export`)
    .set(bearer(admin));
  expect(forAdmin.body.data.profile.certificates.map((c: { id: string }) => c.id)).toEqual([
    certificate.id,
  ]);
  const audit = await rawDb(app)
    .auditLogs.findOne({ action: "user.export", targetId: member.user.id })
    .lean();
  expect(audit).toMatchObject({ actorId: admin.id });
});

it("erasure removes the page's records and every follow by or of the account", async () => {
  const { app, admin } = scenario();
  const { member } = await pageOf();
  const other = await followBothWays(member);
  expect((await publicPage(app, other.uniqueId)).body.data.followerCount).toBe(1);

  const erased = await app.http().delete(`/api/v1/users/${member.user.id}`).set(bearer(admin));
  expect(erased.status).toBe(204);

  const db = rawDb(app).connection;
  const left = await Promise.all(
    ["member_certificates", "member_public_records"].map((name) =>
      db.collection(name).countDocuments({ userId: member.user.id }),
    ),
  );
  expect(left).toEqual([0, 0]);
  const follows = db.collection("member_follows");
  expect(await follows.countDocuments({ followerId: member.user.id })).toBe(0);
  expect(await follows.countDocuments({ followedUserId: member.user.id })).toBe(0);
  expect((await publicPage(app, other.uniqueId)).body.data.followerCount).toBe(0);
  expect((await publicPage(app, member.uniqueId)).status).toBe(404);
});
