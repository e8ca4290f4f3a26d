import { randomBytes } from "node:crypto";
import type { Response } from "supertest";
import { Role } from "../../src/modules/users/role";
import { UNKNOWN_ID, UUID_V7 } from "../support/expectations";
import { bearer, type TestUser } from "../support/factories";
import type { TestApp } from "../support/test-app";
import { rawDb } from "../support/raw-db";
import { startScenario } from "../support/scenario";

const BASE = "/api/v1/offices";

/** The hierarchy, highest first, as the contract lists it. */
const HIERARCHY = [
  "CHIEF_CHAPLAIN",
  "NATIONAL_CHAPLAIN_DIRECTOR",
  "REGIONAL_CHAPLAIN_DIRECTOR",
  "REGIONAL_DEPUTY_CHAPLAIN_DIRECTOR",
  "PROVINCIAL_CHAPLAIN_DIRECTOR",
  "PROVINCIAL_DEPUTY_CHAPLAIN_DIRECTOR",
  "CITY_CHAPLAIN",
  "MUNICIPAL_CHAPLAIN",
  "CITY_MUNICIPAL_DEPUTY_CHAPLAIN",
  "BARANGAY_CHAPLAIN",
  "BARANGAY_DEPUTY_CHAPLAIN",
];

interface Office {
  id: string;
  name: string;
  level: string;
  description: string | null;
  maxSlots: number | null;
  activeHolders: number;
  sections: { id: string; title: string | null; type: string; items: { content: string }[] }[];
  createdAt: string;
  updatedAt: string;
}

let app: TestApp;
let admin: TestUser;
let member: TestUser;
let officer: TestUser;

beforeAll(async () => {
  ({ app, admin, member, officer } = await startScenario({
    users: { member: {}, officer: { role: Role.OFFICER } },
  }));
});
afterAll(() => app?.close());

/** A name no other test in this file uses. */
const uniqueName = (label = "Office") => `${label} ${randomBytes(4).toString("hex")}`;
/** A lower-case token to put in names so a search finds only one test's offices. */
const uniqueToken = () => `tok${randomBytes(4).toString("hex")}`;

const countOffices = () => rawDb(app).offices.estimatedDocumentCount();
const namesOf = (response: Response) => (response.body.data as Office[]).map((o) => o.name);
const levelsOf = (response: Response) => (response.body.data as Office[]).map((o) => o.level);

/** Lets the clock move on, so records written one after the other get distinct timestamps. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

async function createOffice(overrides: Record<string, unknown> = {}): Promise<Office> {
  const response = await app
    .http()
    .post(`${BASE}/create`)
    .set(bearer(admin))
    .send({ name: uniqueName(), level: "CITY_CHAPLAIN", ...overrides });
  if (response.status !== 201) {
    throw new Error(`createOffice: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body.data as Office;
}

async function getOffice(id: string): Promise<Office> {
  const response = await app.http().get(`${BASE}/${id}`).set(bearer(admin));
  expect(response.status).toBe(200);
  return response.body.data as Office;
}

const list = (query: string, user: TestUser = admin) =>
  app.http().get(`${BASE}?${query}`).set(bearer(user));

const put = (id: string, body: Record<string, unknown>, user: TestUser = admin) =>
  app.http().put(`${BASE}/${id}`).set(bearer(user)).send(body);

function expectValidationError(response: Response, path: string) {
  expect(response.status).toBe(400);
  expect(response.body.code).toBe("VALIDATION_ERROR");
  expect(response.body.errors).toEqual(
    expect.arrayContaining([{ path, message: expect.any(String) }]),
  );
}

describe("POST /offices/create", () => {
  it("creates an office title and answers 201 with the full record", async () => {
    const name = uniqueName("Regional Director");
    const response = await app
      .http()
      .post(`${BASE}/create`)
      .set(bearer(admin))
      .send({
        name,
        level: "REGIONAL_CHAPLAIN_DIRECTOR",
        description: "Leads the chaplains of a region",
        maxSlots: 3,
        sections: [
          {
            title: "Duties",
            type: "list",
            items: [{ content: "Supervise provincial directors" }, { content: "Report yearly" }],
          },
          { title: "Background", type: "richtext", items: [{ content: "<p>Since 1998</p>" }] },
        ],
      });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ code: "CREATED", message: expect.any(String) });
    const data = response.body.data as Office;
    expect(data).toEqual({
      id: expect.stringMatching(UUID_V7),
      name,
      level: "REGIONAL_CHAPLAIN_DIRECTOR",
      description: "Leads the chaplains of a region",
      maxSlots: 3,
      activeHolders: 0,
      sections: [
        {
          id: expect.stringMatching(UUID_V7),
          title: "Duties",
          type: "list",
          items: [{ content: "Supervise provincial directors" }, { content: "Report yearly" }],
        },
        {
          id: expect.stringMatching(UUID_V7),
          title: "Background",
          type: "richtext",
          items: [{ content: "<p>Since 1998</p>" }],
        },
      ],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(data.sections[0].id).not.toBe(data.sections[1].id);
    expect(new Date(data.createdAt).toISOString()).toBe(data.createdAt);
    expect(await getOffice(data.id)).toEqual(data);
  });

  it("defaults description and maxSlots to null and sections to an empty list", async () => {
    const name = uniqueName("Barangay Chaplain");
    const office = await createOffice({ name, level: "BARANGAY_CHAPLAIN" });
    expect(office).toMatchObject({
      name,
      level: "BARANGAY_CHAPLAIN",
      description: null,
      maxSlots: null,
      activeHolders: 0,
      sections: [],
    });
  });

  it("accepts an explicit null maxSlots as no limit", async () => {
    const office = await createOffice({ maxSlots: null });
    expect(office.maxSlots).toBeNull();
  });

  it("accepts `title` as an alias of `name`", async () => {
    const title = uniqueName("City Chaplain");
    const response = await app
      .http()
      .post(`${BASE}/create`)
      .set(bearer(admin))
      .send({ title, level: "CITY_CHAPLAIN" });
    expect(response.status).toBe(201);
    expect(response.body.data.name).toBe(title);
    expect(response.body.data).not.toHaveProperty("title");
  });

  it("accepts name and title together when they agree", async () => {
    const name = uniqueName("Municipal Chaplain");
    const office = await createOffice({ name, title: name, level: "MUNICIPAL_CHAPLAIN" });
    expect(office.name).toBe(name);
  });

  it("refuses a name that differs from an existing one only in case (409), storing nothing", async () => {
    const existing = await createOffice({ name: uniqueName("Provincial Director") });
    const before = await countOffices();
    const response = await app
      .http()
      .post(`${BASE}/create`)
      .set(bearer(admin))
      .send({ name: existing.name.toUpperCase(), level: "PROVINCIAL_CHAPLAIN_DIRECTOR" });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ code: "CONFLICT", message: expect.any(String) });
    expect(await countOffices()).toBe(before);
  });

  it.each([
    [
      "name and title that differ",
      { name: "Chief Chaplain A", title: "Chief Chaplain B", level: "CHIEF_CHAPLAIN" },
      "title",
    ],
    ["neither name nor title", { level: "CHIEF_CHAPLAIN" }, "name"],
    ["a blank name", { name: "   ", level: "CHIEF_CHAPLAIN" }, "name"],
    ["a name over 200 characters", { name: "n".repeat(201), level: "CHIEF_CHAPLAIN" }, "name"],
    ["maxSlots 0", { name: "Slots zero", level: "CITY_CHAPLAIN", maxSlots: 0 }, "maxSlots"],
    ["maxSlots 1.5", { name: "Slots frac", level: "CITY_CHAPLAIN", maxSlots: 1.5 }, "maxSlots"],
    ['maxSlots "x"', { name: "Slots text", level: "CITY_CHAPLAIN", maxSlots: "x" }, "maxSlots"],
    [
      "maxSlots over 10000",
      { name: "Slots many", level: "CITY_CHAPLAIN", maxSlots: 10001 },
      "maxSlots",
    ],
    ["a missing level", { name: "No level" }, "level"],
    ["an unknown level", { name: "Bad level", level: "ARCHBISHOP" }, "level"],
    [
      "a section without a title",
      { name: "Untitled section", level: "CITY_CHAPLAIN", sections: [{ type: "list", items: [] }] },
      "sections.0.title",
    ],
    [
      "a section whose title is null",
      {
        name: "Null section title",
        level: "CITY_CHAPLAIN",
        sections: [{ title: null, type: "list", items: [] }],
      },
      "sections.0.title",
    ],
    [
      "a section whose title is blank",
      {
        name: "Blank section title",
        level: "CITY_CHAPLAIN",
        sections: [{ title: "  ", type: "list", items: [] }],
      },
      "sections.0.title",
    ],
    [
      "a later section without a title",
      {
        name: "Second untitled section",
        level: "CITY_CHAPLAIN",
        sections: [
          { title: "Fine", type: "list", items: [] },
          { type: "richtext", items: [{ content: "text" }] },
        ],
      },
      "sections.1.title",
    ],
  ])("answers 400 on the field for %s, storing nothing", async (_case, body, path) => {
    const before = await countOffices();
    const response = await app.http().post(`${BASE}/create`).set(bearer(admin)).send(body);
    expectValidationError(response, path);
    expect(await countOffices()).toBe(before);
  });
});

describe("GET /offices", () => {
  it("answers the paged envelope, newest first by default", async () => {
    const token = uniqueToken();
    const created: Office[] = [];
    for (const label of ["first", "second", "third"]) {
      created.push(await createOffice({ name: `${token} ${label}` }));
      await tick();
    }
    const response = await list(`search=${token}`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ code: "OK", message: expect.any(String) });
    expect(response.body.pagination).toEqual({
      currentPage: 1,
      totalPages: 1,
      totalCount: 3,
      limit: 10,
      hasNextPage: false,
      hasPreviousPage: false,
    });
    expect(namesOf(response)).toEqual([`${token} third`, `${token} second`, `${token} first`]);
    expect(response.body.data[0]).toEqual(created[2]);
  });

  it("lists every office newest first when nothing narrows it", async () => {
    const newest = await createOffice();
    const response = await list("limit=100");
    expect(response.status).toBe(200);
    const data = response.body.data as Office[];
    expect(data[0].id).toBe(newest.id);
    const times = data.map((office) => new Date(office.createdAt).getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(response.body.pagination.totalCount).toBe(await countOffices());
  });

  it("pages with page and limit, and answers an empty page past the end", async () => {
    const token = uniqueToken();
    for (const label of ["a", "b", "c"]) {
      await createOffice({ name: `${token} ${label}` });
      await tick();
    }
    const second = await list(`search=${token}&page=2&limit=2`);
    expect(second.status).toBe(200);
    expect(namesOf(second)).toEqual([`${token} a`]);
    expect(second.body.pagination).toEqual({
      currentPage: 2,
      totalPages: 2,
      totalCount: 3,
      limit: 2,
      hasNextPage: false,
      hasPreviousPage: true,
    });
    const past = await list(`search=${token}&page=5&limit=2`);
    expect(past.status).toBe(200);
    expect(past.body.data).toEqual([]);
    expect(past.body.pagination).toMatchObject({
      currentPage: 5,
      totalPages: 2,
      totalCount: 3,
      hasNextPage: false,
    });
  });

  it.each([
    ["limit=101", "limit"],
    ["limit=0", "limit"],
    ["page=0", "page"],
    ["sortBy=popularity", "sortBy"],
    ["sortOrder=sideways", "sortOrder"],
  ])("refuses %s with 400 naming the parameter", async (query, path) => {
    const response = await list(query);
    expectValidationError(response, path);
  });

  it("searches names case-insensitively as a substring", async () => {
    const token = uniqueToken();
    const wanted = await createOffice({ name: `Deputy ${token} Chaplain` });
    await createOffice({ name: uniqueName("Unrelated") });
    const response = await list(`search=${token.toUpperCase()}`);
    expect(response.status).toBe(200);
    expect(response.body.data.map((o: Office) => o.id)).toEqual([wanted.id]);
    expect(response.body.pagination.totalCount).toBe(1);
  });

  it("searches descriptions case-insensitively as a substring", async () => {
    const token = uniqueToken();
    const wanted = await createOffice({
      name: uniqueName("Provincial Deputy"),
      description: `Assists in the ${token.toUpperCase()} province`,
    });
    await createOffice({ name: uniqueName("Other"), description: "Nothing alike" });
    const response = await list(`search=${token}`);
    expect(response.status).toBe(200);
    expect(response.body.data.map((o: Office) => o.id)).toEqual([wanted.id]);
  });

  describe("sorting by name", () => {
    let token: string;
    beforeAll(async () => {
      token = uniqueToken();
      // Created in an order that is neither alphabetical nor its reverse; mixed case so a
      // byte-wise sort (upper case first) would differ from the alphabetical one.
      for (const word of ["cherry", "Banana", "delta", "apple", "Echo"]) {
        await createOffice({ name: `${token} ${word}` });
      }
    });
    const alphabetical = () =>
      ["apple", "Banana", "cherry", "delta", "Echo"].map((w) => `${token} ${w}`);

    it("sorts alphabetically, ignoring case, ascending and descending", async () => {
      const asc = await list(`search=${token}&sortBy=name&sortOrder=asc`);
      expect(asc.status).toBe(200);
      expect(namesOf(asc)).toEqual(alphabetical());
      const desc = await list(`search=${token}&sortBy=name&sortOrder=desc`);
      expect(namesOf(desc)).toEqual(alphabetical().reverse());
    });

    it("treats sortBy=title the same as sortBy=name", async () => {
      for (const order of ["asc", "desc"]) {
        const byTitle = await list(`search=${token}&sortBy=title&sortOrder=${order}`);
        const byName = await list(`search=${token}&sortBy=name&sortOrder=${order}`);
        expect(byTitle.status).toBe(200);
        expect(namesOf(byTitle)).toEqual(namesOf(byName));
      }
      const asc = await list(`search=${token}&sortBy=title&sortOrder=asc`);
      expect(namesOf(asc)).toEqual(alphabetical());
    });
  });

  it("sorts by createdAt ascending and descending", async () => {
    const token = uniqueToken();
    // Names in reverse alphabetical order of creation, so a name sort would not pass.
    for (const word of ["zulu", "yankee", "xray"]) {
      await createOffice({ name: `${token} ${word}` });
      await tick();
    }
    const asc = await list(`search=${token}&sortBy=createdAt&sortOrder=asc`);
    expect(asc.status).toBe(200);
    expect(namesOf(asc)).toEqual([`${token} zulu`, `${token} yankee`, `${token} xray`]);
    const desc = await list(`search=${token}&sortBy=createdAt&sortOrder=desc`);
    expect(namesOf(desc)).toEqual([`${token} xray`, `${token} yankee`, `${token} zulu`]);
  });

  it("sorts by updatedAt ascending and descending", async () => {
    const token = uniqueToken();
    const offices: Office[] = [];
    for (const word of ["one", "two", "three"]) {
      offices.push(await createOffice({ name: `${token} ${word}` }));
      await tick();
    }
    const updated = await put(offices[0].id, { description: "Touched last" });
    expect(updated.status).toBe(200);
    const asc = await list(`search=${token}&sortBy=updatedAt&sortOrder=asc`);
    expect(asc.status).toBe(200);
    expect(namesOf(asc)).toEqual([`${token} two`, `${token} three`, `${token} one`]);
    const desc = await list(`search=${token}&sortBy=updatedAt&sortOrder=desc`);
    expect(namesOf(desc)).toEqual([`${token} one`, `${token} three`, `${token} two`]);
  });

  it("sorts by level following the hierarchy in both directions, ties by name ascending", async () => {
    const token = uniqueToken();
    // Scrambled: neither hierarchical, alphabetical by level, nor alphabetical by name.
    const scrambled: [string, string][] = [
      ["BARANGAY_CHAPLAIN", "kilo"],
      ["CHIEF_CHAPLAIN", "mike"],
      ["CITY_CHAPLAIN", "zeta"],
      ["PROVINCIAL_CHAPLAIN_DIRECTOR", "alpha"],
      ["NATIONAL_CHAPLAIN_DIRECTOR", "victor"],
      ["BARANGAY_DEPUTY_CHAPLAIN", "bravo"],
      ["CITY_CHAPLAIN", "alpha"],
      ["REGIONAL_DEPUTY_CHAPLAIN_DIRECTOR", "golf"],
      ["MUNICIPAL_CHAPLAIN", "charlie"],
    ];
    for (const [level, word] of scrambled) {
      await createOffice({ name: `${token} ${word} ${level.toLowerCase()}`, level });
    }
    const asc = await list(`search=${token}&sortBy=level&sortOrder=asc`);
    expect(asc.status).toBe(200);
    expect(levelsOf(asc)).toEqual([
      "CHIEF_CHAPLAIN",
      "NATIONAL_CHAPLAIN_DIRECTOR",
      "REGIONAL_DEPUTY_CHAPLAIN_DIRECTOR",
      "PROVINCIAL_CHAPLAIN_DIRECTOR",
      "CITY_CHAPLAIN",
      "CITY_CHAPLAIN",
      "MUNICIPAL_CHAPLAIN",
      "BARANGAY_CHAPLAIN",
      "BARANGAY_DEPUTY_CHAPLAIN",
    ]);
    expect(levelsOf(asc)).toEqual(
      [...levelsOf(asc)].sort((a, b) => HIERARCHY.indexOf(a) - HIERARCHY.indexOf(b)),
    );
    const cityAsc = namesOf(asc).slice(4, 6);
    expect(cityAsc).toEqual([`${token} alpha city_chaplain`, `${token} zeta city_chaplain`]);

    const desc = await list(`search=${token}&sortBy=level&sortOrder=desc`);
    expect(desc.status).toBe(200);
    expect(levelsOf(desc)).toEqual([
      "BARANGAY_DEPUTY_CHAPLAIN",
      "BARANGAY_CHAPLAIN",
      "MUNICIPAL_CHAPLAIN",
      "CITY_CHAPLAIN",
      "CITY_CHAPLAIN",
      "PROVINCIAL_CHAPLAIN_DIRECTOR",
      "REGIONAL_DEPUTY_CHAPLAIN_DIRECTOR",
      "NATIONAL_CHAPLAIN_DIRECTOR",
      "CHIEF_CHAPLAIN",
    ]);
    expect(namesOf(desc).slice(3, 5)).toEqual([
      `${token} alpha city_chaplain`,
      `${token} zeta city_chaplain`,
    ]);
  });
});

describe("GET /offices/{id}", () => {
  it("returns the office in the single-record envelope", async () => {
    const office = await createOffice({ description: "Serves one city" });
    const response = await app.http().get(`${BASE}/${office.id}`).set(bearer(admin));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ code: "OK", message: expect.any(String), data: office });
  });

  it("answers 404 for an unknown id and 400 for an id that is not a UUID", async () => {
    const missing = await app.http().get(`${BASE}/${UNKNOWN_ID}`).set(bearer(admin));
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: "NOT_FOUND", message: expect.any(String) });
    const malformed = await app.http().get(`${BASE}/not-a-uuid`).set(bearer(admin));
    expectValidationError(malformed, "id");
  });
});

describe("PUT /offices/{id}", () => {
  const fullOffice = () =>
    createOffice({
      name: uniqueName("Provincial Director"),
      level: "PROVINCIAL_CHAPLAIN_DIRECTOR",
      description: "Leads a province",
      maxSlots: 4,
      sections: [{ title: "Duties", type: "list", items: [{ content: "Visit parishes" }] }],
    });

  it("changes only the fields given", async () => {
    const office = await fullOffice();
    await tick();
    const response = await put(office.id, { description: "Leads a province and its cities" });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ code: "OK", message: expect.any(String) });
    const data = response.body.data as Office;
    expect(data).toEqual({
      ...office,
      description: "Leads a province and its cities",
      updatedAt: expect.any(String),
    });
    expect(new Date(data.updatedAt).getTime()).toBeGreaterThan(
      new Date(office.updatedAt).getTime(),
    );
    expect(await getOffice(office.id)).toEqual(data);
  });

  it("clears the description with null", async () => {
    const office = await fullOffice();
    const response = await put(office.id, { description: null });
    expect(response.status).toBe(200);
    expect(response.body.data.description).toBeNull();
    expect(response.body.data.maxSlots).toBe(4);
    expect((await getOffice(office.id)).description).toBeNull();
  });

  it("removes the slot limit with maxSlots null", async () => {
    const office = await fullOffice();
    const response = await put(office.id, { maxSlots: null });
    expect(response.status).toBe(200);
    expect(response.body.data.maxSlots).toBeNull();
    expect(response.body.data.description).toBe("Leads a province");
    expect((await getOffice(office.id)).maxSlots).toBeNull();
  });

  it("renames through the `title` alias", async () => {
    const office = await fullOffice();
    const title = uniqueName("Renamed Director");
    const response = await put(office.id, { title });
    expect(response.status).toBe(200);
    expect(response.body.data.name).toBe(title);
    expect(response.body.data.level).toBe(office.level);
    expect((await getOffice(office.id)).name).toBe(title);
  });

  it("re-sorts an office whose level changes", async () => {
    const token = uniqueToken();
    const city = await createOffice({ name: `${token} city`, level: "CITY_CHAPLAIN" });
    const barangay = await createOffice({ name: `${token} barangay`, level: "BARANGAY_CHAPLAIN" });
    const before = await list(`search=${token}&sortBy=level&sortOrder=asc`);
    expect(before.body.data.map((o: Office) => o.id)).toEqual([city.id, barangay.id]);
    const response = await put(barangay.id, { level: "NATIONAL_CHAPLAIN_DIRECTOR" });
    expect(response.status).toBe(200);
    expect(response.body.data.level).toBe("NATIONAL_CHAPLAIN_DIRECTOR");
    const after = await list(`search=${token}&sortBy=level&sortOrder=asc`);
    expect(after.body.data.map((o: Office) => o.id)).toEqual([barangay.id, city.id]);
  });

  it("refuses a name another office has in another case (409), changing nothing", async () => {
    const taken = await createOffice({ name: uniqueName("Taken Name") });
    const office = await fullOffice();
    const response = await put(office.id, {
      name: taken.name.toLowerCase(),
      description: "Should not apply",
    });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ code: "CONFLICT", message: expect.any(String) });
    expect(await getOffice(office.id)).toEqual(office);
  });

  it("keeps its own name when renamed to a different case of it", async () => {
    const office = await fullOffice();
    const response = await put(office.id, { name: office.name.toUpperCase() });
    expect(response.status).toBe(200);
    expect(response.body.data.name).toBe(office.name.toUpperCase());
  });

  it.each([
    ["name: null", { name: null }, "name"],
    ["title: null", { title: null }, "title"],
    ["level: null", { level: null }, "level"],
    ["a blank name", { name: "  " }, "name"],
    ["an unknown level", { level: "POPE" }, "level"],
    ["maxSlots 0", { maxSlots: 0 }, "maxSlots"],
  ])("answers 400 for %s, changing nothing", async (_case, body, path) => {
    const office = await fullOffice();
    const response = await put(office.id, { description: "Should not apply", ...body });
    expectValidationError(response, path);
    expect(await getOffice(office.id)).toEqual(office);
  });

  it("replaces sections: updates by id keeping it, adds those without id, removes the rest", async () => {
    const office = await createOffice({
      sections: [
        { title: "Keep", type: "list", items: [{ content: "old" }] },
        { title: "Drop", type: "list", items: [{ content: "gone" }] },
      ],
    });
    const [keep, drop] = office.sections;
    const response = await put(office.id, {
      sections: [
        { title: "Added", type: "richtext", items: [{ content: "<p>new</p>" }] },
        { id: keep.id, title: "Kept", type: "richtext", items: [{ content: "changed" }] },
      ],
    });
    expect(response.status).toBe(200);
    const sections = (response.body.data as Office).sections;
    expect(sections).toHaveLength(2);
    expect(sections[0]).toEqual({
      id: expect.stringMatching(UUID_V7),
      title: "Added",
      type: "richtext",
      items: [{ content: "<p>new</p>" }],
    });
    expect([keep.id, drop.id]).not.toContain(sections[0].id);
    expect(sections[1]).toEqual({
      id: keep.id,
      title: "Kept",
      type: "richtext",
      items: [{ content: "changed" }],
    });
    expect((await getOffice(office.id)).sections).toEqual(sections);
  });

  it("removes every section with an empty list", async () => {
    const office = await fullOffice();
    const response = await put(office.id, { sections: [] });
    expect(response.status).toBe(200);
    expect(response.body.data.sections).toEqual([]);
  });

  it("refuses a section id the office does not have (400 on sections.N.id), changing nothing", async () => {
    const office = await fullOffice();
    const response = await put(office.id, {
      name: uniqueName("Should not apply"),
      description: "Should not apply",
      sections: [
        { id: office.sections[0].id, title: "Edited", type: "list", items: [] },
        { id: UNKNOWN_ID, title: "Stale", type: "list", items: [] },
      ],
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("VALIDATION_ERROR");
    expect(response.body.errors).toEqual([{ path: "sections.1.id", message: expect.any(String) }]);
    expect(await getOffice(office.id)).toEqual(office);
  });

  it("refuses a section without a title in an update, changing nothing", async () => {
    const office = await fullOffice();
    const response = await put(office.id, {
      sections: [{ id: office.sections[0].id, type: "list", items: [] }],
    });
    expectValidationError(response, "sections.0.title");
    expect(await getOffice(office.id)).toEqual(office);
  });

  it("refuses a section whose title is null in an update, changing nothing", async () => {
    const office = await fullOffice();
    const response = await put(office.id, {
      sections: [{ id: office.sections[0].id, title: null, type: "list", items: [] }],
    });
    expectValidationError(response, "sections.0.title");
    expect(await getOffice(office.id)).toEqual(office);
  });

  it("answers 404 for an unknown id and 400 for an id that is not a UUID", async () => {
    const missing = await put(UNKNOWN_ID, { description: "x" });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("NOT_FOUND");
    expectValidationError(await put("not-a-uuid", { description: "x" }), "id");
  });
});

describe("DELETE /offices/{id}", () => {
  it("deletes with 204 and no body; then GET and a second DELETE answer 404", async () => {
    const office = await createOffice();
    const before = await countOffices();
    const response = await app.http().delete(`${BASE}/${office.id}`).set(bearer(admin));
    expect(response.status).toBe(204);
    expect(response.text).toBe("");
    expect(await countOffices()).toBe(before - 1);
    const gone = await app.http().get(`${BASE}/${office.id}`).set(bearer(admin));
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe("NOT_FOUND");
    const again = await app.http().delete(`${BASE}/${office.id}`).set(bearer(admin));
    expect(again.status).toBe(404);
    expect(again.body.code).toBe("NOT_FOUND");
  });

  it("answers 400 for an id that is not a UUID", async () => {
    const response = await app.http().delete(`${BASE}/not-a-uuid`).set(bearer(admin));
    expectValidationError(response, "id");
  });
});

describe("access by role", () => {
  it("answers 401 on every route to an anonymous caller, changing nothing", async () => {
    const office = await createOffice();
    const before = await countOffices();
    const responses = [
      await app.http().get(BASE),
      await app.http().get(`${BASE}/${office.id}`),
      await app
        .http()
        .post(`${BASE}/create`)
        .send({ name: uniqueName("Anonymous"), level: "CHIEF_CHAPLAIN" }),
      await app
        .http()
        .put(`${BASE}/${office.id}`)
        .send({ name: uniqueName("Anonymous") }),
      await app.http().delete(`${BASE}/${office.id}`),
    ];
    for (const response of responses) {
      expect(response.status).toBe(401);
      expect(response.body.code).toBe("UNAUTHENTICATED");
    }
    expect(await countOffices()).toBe(before);
    expect(await getOffice(office.id)).toEqual(office);
  });

  it.each([
    ["MEMBER", () => member],
    ["OFFICER", () => officer],
  ])(
    "lets the %s role read but answers 403 to its writes, changing nothing",
    async (_role, who) => {
      const user = who();
      const office = await createOffice({ description: "Read-only for non-admins" });

      const listed = await list(`search=${encodeURIComponent(office.name)}`, user);
      expect(listed.status).toBe(200);
      expect(listed.body.data).toEqual([office]);
      const read = await app.http().get(`${BASE}/${office.id}`).set(bearer(user));
      expect(read.status).toBe(200);
      expect(read.body.data).toEqual(office);

      const before = await countOffices();
      const name = uniqueName("Forbidden");
      const writes = [
        await app
          .http()
          .post(`${BASE}/create`)
          .set(bearer(user))
          .send({ name, level: "CHIEF_CHAPLAIN" }),
        await put(office.id, { name, description: "hijacked" }, user),
        await app.http().delete(`${BASE}/${office.id}`).set(bearer(user)),
      ];
      for (const response of writes) {
        expect(response.status).toBe(403);
        expect(response.body.code).toBe("FORBIDDEN");
      }
      expect(await countOffices()).toBe(before);
      expect(await rawDb(app).offices.exists({ nameKey: name.toLowerCase() })).toBeNull();
      expect(await getOffice(office.id)).toEqual(office);
    },
  );
});
