/*
 * The public page the organisation's site renders: everything a member added and
 * chose to show, every list present, never contact data, the address, the home barangay, the
 * birth date, SSS/TIN or documents; the same through /graphql; its ETag changes with every write
 * it is made of; and the one public URL in the approval mail.
 */
import { PublicMemberDocument } from "../graphql/generated";
import { bearer, buildBranchService, buildOffice, buildUser } from "../support/factories";
import { storageDir } from "../support/file-samples";
import { useScenario } from "../support/scenario";
import type { TestApp } from "../support/test-app";
import { approvedMember, as, choose, publicPage, uploaded } from "../support/profile-fixtures";

const storage = storageDir();
const APP_URL = "https://chaplains.example.org";
const scenario = useScenario({ env: { ...storage.env, APP_URL } });

/** What the application holds that a public page must never show. */
const PRIVATE = {
  homeAddress: "77 Hidden Lane",
  barangay: "Secretbarangay",
  mobilePhoneNumber: "09170000777",
  emergencyContactName: "Hidden Contact",
  emergencyContactMobile: "09180000777",
  dateOfBirth: "1971-07-07T00:00:00.000Z",
  sssNumber: "34-7777777-7",
  tinNumber: "777-777-777",
};
/** Where the appointment serves: the office's place, shown, unlike the member's home. */
const PLACE = {
  department: "Davao City Police Office",
  region: "Davao Region",
  province: "Davao del Sur",
  cityMunicipality: "Davao City",
  barangay: "Poblacion District",
};
const FORBIDDEN =
  /Hidden Lane|Secretbarangay|0917000077|0918000077|Hidden Contact|1971-07-07|7777777|777-777|@|\/files\/[0-9a-f-]{36}\?/;

async function etagOf(app: TestApp, key: string): Promise<string> {
  const first = await publicPage(app, key);
  expect(first.status).toBe(200);
  expect(first.headers["cache-control"]).toBe("public, max-age=60");
  const again = await publicPage(app, key).set("if-none-match", first.headers.etag);
  expect(again.status).toBe(304);
  return first.headers.etag;
}

describe("GET /members/public/{idOrUniqueId} as the site renders it", () => {
  it("carries everything the member added and chose to show, and nothing private", async () => {
    const { app, admin } = scenario();
    const branch = await buildBranchService(app, admin);
    const member = await approvedMember(app, admin, {
      ...PRIVATE,
      firstName: "Maria",
      middleInitial: "D",
      lastName: "Santos",
      extensionName: "III",
      region: "Region XI",
      province: "Davao del Sur",
      municipalityCity: "Davao City",
      churchAffiliation: "Grace Church",
      churchAddress: "1 Church Rd",
      currentPositionRole: "PASTOR",
      elementarySchool: "Central Elementary",
      preferredBranchIds: [branch.id],
    });
    const send = as(app, member.user);
    const office = await buildOffice(app, admin, { level: "MUNICIPAL_CHAPLAIN" });
    const appointed = await app
      .http()
      .post(`/api/v1/offices/${office.id}/holders`)
      .set(bearer(admin))
      .send({ memberId: member.id, startDate: "2025-01-01", ...PLACE });
    expect(appointed.status).toBe(201);
    const avatar = await uploaded(app, member.user, "AVATAR");
    await send("put", "/users/current", { avatar: avatar.id }).expect(200);
    const banner = await uploaded(app, member.user, "PUBLIC_RECORD");
    await send("put", "/members/current/profile-banner", {
      profileBannerUrl: banner.id,
      profileBannerPositionY: 25,
    }).expect(200);
    const certificateFile = await uploaded(app, member.user, "CERTIFICATE", true);
    const certificate = await send("post", "/members/current/certificates", {
      title: "Crisis Chaplaincy",
      certificateUrl: certificateFile.id,
      issuedAt: "2024-04-04",
    });
    const picture = await uploaded(app, member.user, "PUBLIC_RECORD");
    const record = await send("post", "/members/current/public-records", {
      title: "Flood relief",
      shortDescription: "<p>Served</p>",
      type: "COMMUNITY_SERVICE",
      eventAt: "2025-02-02",
      location: "Davao City",
      status: "PUBLISHED",
      attachments: [{ fileUrl: picture.id }],
    });
    await choose(app, member.user, {
      listed: true,
      showLocation: true,
      showBranches: true,
      showChurch: true,
      showEducation: true,
    });
    const fan = await buildUser(app);
    await app
      .http()
      .post(`/api/v1/members/public/${member.uniqueId}/follow`)
      .set(bearer(fan))
      .expect(200);

    const response = await publicPage(app, member.uniqueId);
    expect(response.status).toBe(200);
    const publicFile = (id: string) =>
      expect.stringMatching(new RegExp(`/api/v1/files/public/${id}$`));
    expect(response.body.data).toEqual({
      id: member.id,
      uniqueId: member.uniqueId,
      fullName: "Maria D. Santos III",
      memberType: null,
      badgeNumber: null,
      photoUrl: null,
      region: "Davao Region",
      province: "Davao del Sur",
      municipalityCity: "Davao City",
      preferredBranches: [{ id: branch.id, title: branch.title }],
      status: "APPROVED",
      // Before the oath: no membership year yet, and the check says CURRENT.
      standing: "CURRENT",
      validUntil: null,
      memberSince: expect.any(String),
      offices: [{ title: office.name, level: "MUNICIPAL_CHAPLAIN" }],
      firstName: "Maria",
      middleInitial: "D",
      lastName: "Santos",
      extensionName: "III",
      isActive: true,
      user: { name: "Applicant", avatar: publicFile(avatar.id) },
      officerAssignments: [
        {
          id: appointed.body.data.id,
          officeTitle: { id: office.id, name: office.name, level: "MUNICIPAL_CHAPLAIN" },
          startDate: "2025-01-01T00:00:00.000Z",
          ...PLACE,
        },
      ],
      applicantRequirements: [],
      certificates: [{ ...certificate.body.data, certificateUrl: publicFile(certificateFile.id) }],
      publicRecords: [
        {
          ...record.body.data,
          attachments: [{ ...record.body.data.attachments[0], fileUrl: publicFile(picture.id) }],
        },
      ],
      followerCount: 1,
      profileBannerUrl: publicFile(banner.id),
      profileBannerPositionY: 25,
      churchAffiliation: "Grace Church",
      churchAddress: "1 Church Rd",
      currentPositionRole: "PASTOR",
      currentPositionRoleOther: null,
      elementarySchool: "Central Elementary",
      secondarySchool: null,
      tertiaryCollege: null,
      postGraduateStudies: null,
    });
    expect(JSON.stringify(response.body)).not.toMatch(FORBIDDEN);
    for (const id of [avatar.id, banner.id, certificateFile.id, picture.id]) {
      expect((await app.http().get(`/api/v1/files/public/${id}`)).status).toBe(200);
    }

    const graph = await app.graphql(PublicMemberDocument, { id: member.uniqueId });
    expect(graph.data?.publicMember.data).toEqual(response.body.data);
  });

  it("answers a new ETag after each write the page is made of", async () => {
    const { app, admin } = scenario();
    const member = await approvedMember(app, admin);
    await choose(app, member.user, { listed: true });
    const send = as(app, member.user);
    const fan = await buildUser(app);
    const writes: [string, () => Promise<unknown>][] = [
      [
        "a certificate",
        async () =>
          send("post", "/members/current/certificates", {
            title: "Course",
            certificateUrl: (await uploaded(app, member.user, "CERTIFICATE")).id,
            issuedAt: "2024-01-01",
          }).expect(201),
      ],
      [
        "a public record",
        () =>
          send("post", "/members/current/public-records", {
            title: "Visit",
            shortDescription: "",
            type: "PARTICIPATION",
            eventAt: "2024-01-01",
            location: "Cebu",
            status: "PUBLISHED",
          }).expect(201),
      ],
      [
        "a follow",
        () =>
          app
            .http()
            .post(`/api/v1/members/public/${member.uniqueId}/follow`)
            .set(bearer(fan))
            .expect(200),
      ],
      ["the account's name", () => send("put", "/users/current", { name: "Renamed" }).expect(200)],
      [
        "the church",
        () =>
          send("put", "/members/current/church-affiliation", { churchAffiliation: "New" }).expect(
            200,
          ),
      ],
    ];
    for (const [what, write] of writes) {
      const before = await etagOf(app, member.uniqueId);
      await write();
      const after = await publicPage(app, member.uniqueId).set("if-none-match", before);
      expect([what, after.status]).toEqual([what, 200]);
      expect(after.headers.etag).not.toBe(before);
    }
    expect((await publicPage(app, member.uniqueId)).body.data.user.name).toBe("Renamed");
  });
});

describe("one public URL", () => {
  it("the approval mail links the member's page APP_URL/profile/<uniqueId>", async () => {
    const { app, admin } = scenario();
    const member = await approvedMember(app, admin);
    const mail = await app.mail.waitFor(member.user.email, { subject: /approved/i });
    const url = `${APP_URL}/profile/${member.uniqueId}`;
    expect(mail.text).toContain(`Your public page: ${url}`);
    expect(mail.html).toContain(`href="${url}"`);
    const mine = await as(app, member.user)("get", "/members/me");
    expect(mine.body.data[0].publicUrl).toBe(url);
  });
});
