/*
 * GET /members/public/directory-locations: approved, active members counted by
 * region down to barangay, regions under their official names, headquarters from HQ_*.
 */
import { DirectoryLocationsDocument } from "../graphql/generated";
import { applyAs, approvedMemberOf, bearer, buildUser } from "../support/factories";
import { rawDb } from "../support/raw-db";
import { useScenario } from "../support/scenario";

const scenario = useScenario({
  env: {
    HQ_NAME: "Test Headquarters",
    HQ_ADDRESS: "1 Test Street, Quezon City",
    HQ_LATITUDE: "14.5",
    HQ_LONGITUDE: "121.25",
  },
});

const place = (region: string, province: string, municipalityCity: string, barangay: string) => ({
  region,
  province,
  municipalityCity,
  barangay,
});

beforeAll(async () => {
  const { app, admin } = scenario();
  // Two forms of NCR, one of Central Visayas: the directory groups them under official names.
  await approvedMemberOf(app, admin, place("NCR", "Metro Manila", "Quezon City", "Commonwealth"));
  await approvedMemberOf(
    app,
    admin,
    place("Metro Manila", "Metro Manila", "Quezon City", "Commonwealth"),
  );
  await approvedMemberOf(
    app,
    admin,
    place("National Capital Region", "Metro Manila", "Manila", "Tondo"),
  );
  await approvedMemberOf(
    app,
    admin,
    place("Region VII (Central Visayas)", "Cebu", "Cebu City", "Lahug"),
  );
  await approvedMemberOf(app, admin, place("Region VII", "Cebu", "Mandaue City", "Bakilid"));
  // Not counted: pending, rejected, archived.
  await applyAs(
    app,
    await buildUser(app),
    place("BARMM", "Maguindanao", "Cotabato City", "Rosary Heights"),
  );
  const rejected = await applyAs(
    app,
    await buildUser(app),
    place("CAR", "Benguet", "Baguio", "Irisan"),
  );
  await app
    .http()
    .patch(`/api/v1/members/${rejected.id}/status`)
    .set(bearer(admin))
    .send({ status: "REJECTED" });
  const archived = await approvedMemberOf(
    app,
    admin,
    place("Region XI", "Davao del Sur", "Davao City", "Buhangin"),
  );
  await app.http().patch(`/api/v1/members/${archived.id}/archive`).set(bearer(admin));
});

describe("GET /members/public/directory-locations", () => {
  it("counts approved, active members by place in the client's shape, with no token", async () => {
    const { app } = scenario();
    const response = await app.http().get("/api/v1/members/public/directory-locations");
    expect(response.status).toBe(200);
    expect(response.body.code).toBe("OK");
    const data = response.body.data;
    expect(data.summary).toEqual({
      totalMembers: 5,
      membersWithRegion: 5,
      regionsRepresented: 2,
      provincesRepresented: 2,
      municipalitiesRepresented: 4,
      barangaysRepresented: 4,
    });
    expect(data.headquarters).toEqual({
      name: "Test Headquarters",
      address: "1 Test Street, Quezon City",
      latitude: 14.5,
      longitude: 121.25,
    });
    expect(data.regionLocations).toEqual([
      {
        region: "National Capital Region",
        memberCount: 3,
        provinceCount: 1,
        municipalityCount: 2,
        barangayCount: 2,
        provinces: [
          {
            province: "Metro Manila",
            memberCount: 3,
            municipalityCount: 2,
            barangayCount: 2,
            municipalities: [
              {
                municipalityCity: "Quezon City",
                memberCount: 2,
                barangayCount: 1,
                barangays: [{ barangay: "Commonwealth", memberCount: 2 }],
              },
              {
                municipalityCity: "Manila",
                memberCount: 1,
                barangayCount: 1,
                barangays: [{ barangay: "Tondo", memberCount: 1 }],
              },
            ],
          },
        ],
      },
      {
        region: "Central Visayas",
        memberCount: 2,
        provinceCount: 1,
        municipalityCount: 2,
        barangayCount: 2,
        provinces: [
          {
            province: "Cebu",
            memberCount: 2,
            municipalityCount: 2,
            barangayCount: 2,
            municipalities: [
              {
                municipalityCity: "Cebu City",
                memberCount: 1,
                barangayCount: 1,
                barangays: [{ barangay: "Lahug", memberCount: 1 }],
              },
              {
                municipalityCity: "Mandaue City",
                memberCount: 1,
                barangayCount: 1,
                barangays: [{ barangay: "Bakilid", memberCount: 1 }],
              },
            ],
          },
        ],
      },
    ]);
    expect(JSON.stringify(response.body)).not.toMatch(/Santos|Mabini|0917|@/);
  });

  it("is a public cached read: Cache-Control public, an ETag, and 304 on If-None-Match", async () => {
    const { app } = scenario();
    const first = await app.http().get("/api/v1/members/public/directory-locations");
    expect(first.headers["cache-control"]).toBe("public, max-age=60");
    const etag = first.headers.etag;
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await app
      .http()
      .get("/api/v1/members/public/directory-locations")
      .set("if-none-match", etag);
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
  });

  it("answers the same through /graphql", async () => {
    const { app } = scenario();
    const rest = await app.http().get("/api/v1/members/public/directory-locations");
    const graph = await app.graphql(DirectoryLocationsDocument);
    expect(graph.errors).toBeUndefined();
    expect(graph.data?.directoryLocations.data).toEqual(rest.body.data);
  });

  it("the application stores a region's common form under its official name", async () => {
    const { app } = scenario();
    const record = await applyAs(
      app,
      await buildUser(app),
      place("Region IV-A", "Laguna", "Calamba", "Real"),
    );
    expect(record.region).toBe("CALABARZON");
    const kept = await applyAs(app, await buildUser(app), place("Somewhere Else", "X", "Y", "Z"));
    expect(kept.region).toBe("Somewhere Else");
  });

  it("the migration moves stored common forms to official names and leaves unknown ones", async () => {
    const { app } = scenario();
    const record = await applyAs(app, await buildUser(app), place("Somewhere", "P", "M", "B"));
    const other = await applyAs(app, await buildUser(app), place("Atlantis", "P", "M", "B"));
    // Records written before regions were mapped.
    await rawDb(app).members.updateOne({ _id: record.id }, { $set: { region: "Region 4-A" } });
    for (const step of app.internals.migrations) await step.run();
    const stored = await rawDb(app).members.findById(record.id).lean();
    expect(stored?.region).toBe("CALABARZON");
    const unknown = await rawDb(app).members.findById(other.id).lean();
    expect(unknown?.region).toBe("Atlantis");
  });
});
