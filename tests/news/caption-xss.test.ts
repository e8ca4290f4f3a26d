import { bearer, type TestUser } from "../support/factories";
import { startScenario } from "../support/scenario";
import type { TestApp } from "../support/test-app";
import { XSS_CORPUS, executableMarkupIn } from "../support/xss-corpus";

/**
 * Issue 41's "done when": an XSS corpus sent through the real routes leaves no executable
 * markup in any caption the service answers, to administrators or to the public.
 */
const BASE = "/api/v1/news-blogs";

let app: TestApp;
let admin: TestUser;

beforeAll(async () => {
  ({ app, admin } = await startScenario());
});
afterAll(() => app?.close());

describe("captions against the XSS corpus", () => {
  const written = new Map<string, string>();

  it("cleans every attack on create, in the answer to the administrator", async () => {
    for (const attack of XSS_CORPUS) {
      const response = await app
        .http()
        .post(`${BASE}/create`)
        .set(bearer(admin))
        .send({
          title: "Attack",
          caption: `<p>before</p>${attack}<p>after</p>`,
          status: "PUBLISHED",
        });
      expect(response.status).toBe(201);
      const caption = response.body.data.caption as string;
      expect({ attack, problems: executableMarkupIn(caption) }).toEqual({ attack, problems: [] });
      // The formatting around the attack survives: cleaning is not wiping.
      expect(caption.startsWith("<p>before</p>")).toBe(true);
      written.set(response.body.data.id as string, attack);
    }
  });

  it("cleans every attack on update too", async () => {
    const [id] = written.keys();
    for (const attack of XSS_CORPUS) {
      const response = await app
        .http()
        .put(`${BASE}/${id}`)
        .set(bearer(admin))
        .send({ caption: attack });
      expect(response.status).toBe(200);
      expect({ attack, problems: executableMarkupIn(response.body.data.caption) }).toEqual({
        attack,
        problems: [],
      });
    }
  });

  it("serves only clean captions on the public list, the public detail and the admin list", async () => {
    const pages = [
      await app.http().get(`${BASE}/public`).query({ limit: 100 }),
      await app.http().get(BASE).query({ limit: 100 }).set(bearer(admin)),
    ];
    for (const page of pages) {
      expect(page.status).toBe(200);
      expect(page.body.data.length).toBe(XSS_CORPUS.length);
      for (const post of page.body.data) expect(executableMarkupIn(post.caption)).toEqual([]);
    }
    for (const id of [...written.keys()].slice(0, 5)) {
      const one = await app.http().get(`${BASE}/public/${id}`);
      expect(executableMarkupIn(one.body.data.caption)).toEqual([]);
    }
  });

  it("cleans a caption sent through /graphql the same way", async () => {
    const response = await app
      .http()
      .post("/graphql")
      .set(bearer(admin))
      .send({
        query:
          'mutation($c: String) { createNewsPost(title: "G", caption: $c) { data { caption } } }',
        variables: {
          c: '<p>ok</p><a href="jav&#x61;script:alert(1)">x</a><svg onload=alert(1)></svg>',
        },
      });
    const caption = response.body.data.createNewsPost.data.caption as string;
    expect(executableMarkupIn(caption)).toEqual([]);
    expect(caption).toBe('<p>ok</p><a rel="noopener noreferrer nofollow">x</a>');
  });
});
