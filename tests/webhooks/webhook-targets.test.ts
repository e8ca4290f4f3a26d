import { loadConfig } from "../../src/config";
import { bearer } from "../support/factories";
import { startScenario } from "../support/scenario";
import { PRODUCTION_ENV } from "../support/test-app";

const API = "/api/v1";

describe("webhook targets in production", () => {
  it("refuses URLs on private, loopback and link-local addresses, storing nothing", async () => {
    const { app, admin } = await startScenario({ env: PRODUCTION_ENV });
    try {
      for (const url of [
        "https://127.0.0.1/hook",
        "https://localhost/hook",
        "https://10.1.2.3/hook",
        "https://172.20.0.5/hook",
        "https://192.168.1.10/hook",
        "https://169.254.169.254/latest/meta-data",
        "https://[::1]/hook",
        "https://[fd00::1]/hook",
        "https://[::ffff:127.0.0.1]/hook",
        "http://93.184.215.14/hook",
      ]) {
        const response = await app
          .http()
          .post(`${API}/webhooks`)
          .set(bearer(admin))
          .send({ url, events: ["news.published"] });
        expect({ url, status: response.status }).toEqual({ url, status: 400 });
        expect(response.body.errors[0].path).toBe("url");
      }
      const list = await app.http().get(`${API}/webhooks`).set(bearer(admin));
      expect(list.body.pagination.totalCount).toBe(0);
    } finally {
      await app.close();
    }
  });

  it("will not start with WEBHOOKS_ALLOW_PRIVATE=true", () => {
    expect(() =>
      loadConfig({
        ...PRODUCTION_ENV,
        MONGODB_URI: "mongodb://db/x",
        SMTP_URL: "smtp://mail:25",
        WEBHOOKS_ALLOW_PRIVATE: "true",
      }),
    ).toThrow(/WEBHOOKS_ALLOW_PRIVATE/);
  });
});
